// TEMPORARY home page: the content issue replaces it with the hero, areas, hours and badges.
import type { MetaFunction } from "@remix-run/node";
import { Link, useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";

export const meta: MetaFunction = ({ matches }) => {
  const root = matches.find((m) => m.id === "root")?.data as { shell?: { businessName: string; tagline: string } } | undefined;
  return [
    { title: root?.shell?.businessName ?? "Home" },
    { name: "description", content: root?.shell?.tagline ?? "" },
  ];
};

export default function Index() {
  const data = useRouteLoaderData<typeof rootLoader>("root");
  return (
    <section className="mx-auto max-w-6xl px-4 py-16">
      <h1 className="text-4xl font-bold">{data?.shell.businessName}</h1>
      <p className="mt-4 text-lg">{data?.shell.tagline}</p>
      <p className="mt-8 flex gap-4">
        <Link className="underline" to="/services">
          View Services
        </Link>
        <Link className="underline" to="/contact">
          Contact Us
        </Link>
      </p>
    </section>
  );
}
