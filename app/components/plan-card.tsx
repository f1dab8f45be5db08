import { Link } from "@remix-run/react";
import type { ResolvedImage } from "~/content/images.server";
import type { PlanCard as Plan } from "~/content/types";
import { PriceTag } from "./price-tag";
import { ResponsiveImage } from "./responsive-image";

export function PopularBadge({ text }: { text: string }) {
  return <span className="popular-badge">{text}</span>;
}

/** One plan in the catalogue; the "Learn More" link names the plan for screen readers. */
export function PlanCard({
  plan,
  learnMoreLabel,
  image,
  headingLevel = 3,
}: {
  plan: Plan;
  learnMoreLabel: string;
  image?: ResolvedImage | null;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const highlighted = plan.popular;
  return (
    <article
      aria-labelledby={`plan-${plan.slug}`}
      className={highlighted ? "plan-card plan-card-popular" : "plan-card"}
    >
      {image ? <ResponsiveImage image={image} sizes="(min-width: 1024px) 22rem, 100vw" className="mb-4" /> : null}
      {highlighted && plan.badge ? (
        <div className="mb-3">
          <PopularBadge text={plan.badge} />
        </div>
      ) : null}
      <Heading id={`plan-${plan.slug}`} className="text-xl font-bold ink">
        {plan.name}
      </Heading>
      <div className="mt-2">
        <PriceTag price={plan.price} />
      </div>
      <p className="mt-3 ink-muted">{plan.shortDescription}</p>
      <ul className="check-list mt-4 flex-1 space-y-2 ink-soft">
        {plan.features.map((feature) => (
          <li key={feature}>
            <span aria-hidden="true">✓</span>
            {feature}
          </li>
        ))}
      </ul>
      <Link to={`/services/${plan.slug}`} prefetch="intent" className="mt-6 btn-outline">
        {learnMoreLabel}
        <span className="sr-only">{` about ${plan.name}`}</span>
      </Link>
      {/* A subscription can be started online at /start (issue 37); one-time visits are quoted. */}
      {plan.visitsPerWeek !== null && plan.price.unit === "month" ? (
        <Link to="/start" className="mt-3 btn-outline">
          Start online
          <span className="sr-only">{` with ${plan.name}`}</span>
        </Link>
      ) : null}
    </article>
  );
}
