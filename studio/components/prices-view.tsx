import {useEffect, useState} from 'react'
import {useClient} from 'sanity'
import {IntentLink} from 'sanity/router'

/**
 * "Prices": every plan and add-on with its price side by side, drafts included, so the owner
 * settles the catalogue's conflicting prices in one place (each plan carries one price, used by
 * the catalogue, its page, search engines and the quote estimate).
 */

type PlanRow = {
  _id: string
  name?: string
  slug?: string
  kind?: string
  amount?: number
  unit?: string
  shown?: boolean
}
type AddOnRow = {_id: string; name?: string; tiers?: {minDogs?: number; monthlyAmount?: number}[]}

const QUERY = `{
  "plans": *[_type == "servicePlan"] | order(order asc, name asc){
    _id, name, "slug": slug.current, kind, "amount": price.amount, "unit": price.unit, "shown": showInCatalogue
  },
  "addOns": *[_type == "addOn"] | order(order asc){_id, name, "tiers": tiers[]{minDogs, monthlyAmount}}
}`

const UNIT_WORDS: Record<string, string> = {
  month: 'per month',
  'one-time': 'one time',
  'per-bin': 'per bin',
  from: 'from (starting price)',
}

/** Drafts win over their published copy: the owner sees what they are about to publish. */
function latest<T extends {_id: string}>(rows: T[]): (T & {draft: boolean})[] {
  const byId = new Map<string, T & {draft: boolean}>()
  for (const row of rows) {
    const id = row._id.replace(/^drafts\./, '')
    const draft = row._id.startsWith('drafts.')
    if (draft || !byId.has(id)) byId.set(id, {...row, _id: id, draft})
  }
  return [...byId.values()]
}

const cell = {padding: '8px 12px', borderBottom: '1px solid #d9dde3', textAlign: 'left' as const}

export function PricesView() {
  const client = useClient({apiVersion: '2025-02-19'})
  const [data, setData] = useState<{plans: PlanRow[]; addOns: AddOnRow[]} | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    const drafts = client.withConfig({perspective: 'raw'})
    const load = () =>
      drafts
        .fetch<{plans: PlanRow[]; addOns: AddOnRow[]}>(QUERY)
        .then(setData)
        .catch((reason: unknown) => setError(String(reason)))
    load()
    // Keep the table current while prices are edited in another pane.
    const subscription = drafts.listen(`*[_type in ["servicePlan", "addOn"]]`).subscribe(() => load())
    return () => subscription.unsubscribe()
  }, [client])

  if (error) return <p style={{padding: 16}}>Could not load the prices: {error}</p>
  if (!data) return <p style={{padding: 16}}>Loading prices…</p>

  return (
    <div style={{padding: 16, fontFamily: 'inherit'}}>
      <p style={{maxWidth: 640}}>
        Each plan has one price. The catalogue, the plan&apos;s page, search engines and the quote estimate all show
        it. Click a plan to change its price; a draft shows here before it is published.
      </p>
      <table style={{borderCollapse: 'collapse', width: '100%', maxWidth: 900}}>
        <caption style={{textAlign: 'left', fontWeight: 700, padding: '12px 0'}}>Service plans</caption>
        <thead>
          <tr>
            <th style={cell}>Plan</th>
            <th style={cell}>Price</th>
            <th style={cell}>Charged</th>
            <th style={cell}>Kind</th>
            <th style={cell}>In the catalogue</th>
          </tr>
        </thead>
        <tbody>
          {latest(data.plans).map((plan) => (
            <tr key={plan._id}>
              <td style={cell}>
                <IntentLink intent="edit" params={{id: plan._id, type: 'servicePlan'}}>
                  {plan.name ?? plan.slug ?? plan._id}
                </IntentLink>
                {plan.draft ? ' (unpublished changes)' : ''}
              </td>
              <td style={{...cell, fontVariantNumeric: 'tabular-nums'}}>
                {typeof plan.amount === 'number' ? `$${plan.amount}` : 'No price yet'}
              </td>
              <td style={cell}>{plan.unit ? UNIT_WORDS[plan.unit] ?? plan.unit : '-'}</td>
              <td style={cell}>{plan.kind ?? '-'}</td>
              <td style={cell}>{plan.shown === false ? 'Hidden' : 'Shown'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table style={{borderCollapse: 'collapse', width: '100%', maxWidth: 900, marginTop: 24}}>
        <caption style={{textAlign: 'left', fontWeight: 700, padding: '12px 0'}}>Add-ons (per month)</caption>
        <thead>
          <tr>
            <th style={cell}>Add-on</th>
            <th style={cell}>Dogs</th>
            <th style={cell}>Extra per month</th>
          </tr>
        </thead>
        <tbody>
          {latest(data.addOns).flatMap((addOn) =>
            (addOn.tiers ?? []).map((tier, index) => (
              <tr key={`${addOn._id}-${index}`}>
                <td style={cell}>
                  <IntentLink intent="edit" params={{id: addOn._id, type: 'addOn'}}>
                    {addOn.name ?? addOn._id}
                  </IntentLink>
                </td>
                <td style={cell}>{tier.minDogs ? `${tier.minDogs} or more` : '-'}</td>
                <td style={{...cell, fontVariantNumeric: 'tabular-nums'}}>
                  {typeof tier.monthlyAmount === 'number' ? `$${tier.monthlyAmount}` : '-'}
                </td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </div>
  )
}
