import {business} from './business'

// The business's name, contact details, areas and hours are Site settings values, inserted where
// the page is shown (decision 054): a legal text never carries a copy that could go stale.
const {shortName, arbitrationVenue} = business
const name = '{{businessName}}'
const areaList = '{{serviceAreas}}'
const mail = '{{email}}'
const call = '{{phone}}'
const hours = '{{hours}}'

export type LegalSource = {slug: string; title: string; seoTitle: string; seoDescription: string; body: string}

const terms = `
These Terms of Service ("Terms") are an agreement between you and ${name} ("${shortName}", "we", "us" or "our"). They apply when you use our website, request a quote, book a visit, or receive any of our services. By booking or receiving a service you accept these Terms. If you do not agree with them, please do not book a service.

## 1. Our services
We provide pet waste removal, yard sanitizing and deodorizing, and trash bin cleaning for homes, HOAs and businesses in ${areaList}, Nevada. The services, what each one includes, and current prices are described on our website. We may add, change or stop offering a service at any time; changes do not affect a visit we have already confirmed.

## 2. Eligibility
You must be at least 18 years old and legally able to enter into a contract to book a service. You must be the owner or occupant of the property, or have the owner's permission for us to work there.

## 3. Quotes and prices
Quotes are based on the information you give us, such as the number of dogs and the size of the yard. If the yard turns out to be very different from what was described, we will tell you and agree a new price with you before we continue. Prices marked "from" are starting prices; the final price for that service is confirmed with you before work begins. We may change our prices with at least {{priceChangeNoticeDays}} days' notice to existing subscription customers: a new price applies to your plan from the first of a month at least that far away, and we e-mail you before it does.

## 4. Subscriptions and billing
Subscription plans recur until you cancel. There is no long-term contract and no cancellation fee. Subscription plans are billed monthly; one-time services are billed once the visit is completed. You agree to keep a valid payment method on file and to pay all charges for services performed.

## 5. Access to your yard and your responsibilities
To do our job safely we need:
- clear access to the yard on the scheduled day (an unlocked gate or a working gate code);
- all pets secured indoors or away from the work area during the visit;
- notice of anything hazardous in the yard, such as broken sprinklers, open holes, aggressive animals or chemical treatments;
- accurate contact details so we can reach you.

We close and latch gates behind us. We are not responsible for gates left open by anyone else, or for pets that leave the property when the yard was not secured.

## 6. Cancellations, rescheduling and denied access
You can skip, cancel or reschedule a visit free of charge if you tell us at least {{changeNoticeHours}} hours before the scheduled visit; you can skip a visit yourself in your account until then. You can also pause your plan for up to {{longestPauseDays}} days at a time, or cancel it, from your account. A cancellation with less than {{changeNoticeHours}} hours' notice, or a visit where we cannot do the work because access is denied (for example a locked gate, a loose pet, or an unsafe condition in the yard), is billed at the full service rate.

If we need to move a visit because of weather or safety, we will tell you and reschedule it to the next available day at no extra charge.

## 7. Our guarantee, complaints and refunds
Our 100% No Mess Guarantee means that if we miss a spot, we make it right. Please tell us about any problem with a visit **within 24 hours** of that visit, by e-mail or phone. We will come back **within 24 hours** of your report to fix a missed spot at no charge. If we cannot put it right, we will discuss a partial or full refund for that visit.

Complaints and refund requests made more than 24 hours after a visit cannot be accepted, because we can no longer check the condition the yard was left in.

## 8. Photos
We take photos of your yard before and after a visit to confirm the work. They are shared with you in your customer portal and are handled as described in our [Privacy Policy](/privacy-policy). We do not publish photos of your property without your permission.

## 9. Limitation of liability
To the fullest extent permitted by Nevada law, our total liability for any claim arising from our services or these Terms is limited to **the amount you paid for the most recent service** before the claim arose. We are not liable for indirect, incidental or consequential losses, for damage that existed before our visit, or for damage caused by conditions we were not told about. Nothing in these Terms limits liability that cannot be limited by law.

## 10. Disputes and arbitration
These Terms are governed by the laws of the State of Nevada. If a dispute arises, please contact us first so that we can try to resolve it informally. Any dispute that cannot be resolved informally will be settled by binding arbitration in **${arbitrationVenue}**, except that either party may bring a claim in small claims court where it qualifies. You and we each waive the right to a jury trial and to take part in a class action.

## 11. Children
Our services and website are not directed at children under 18, and we do not knowingly accept bookings from anyone under 18.

## 12. Changes to these Terms
We may update these Terms from time to time. The date at the top of this page shows when they last changed. Changes apply to visits booked after the new Terms are posted.

## 13. Contact us
Questions about these Terms? E-mail us at ${mail} or call ${call}, ${hours}.
`

const privacy = `
This Privacy Policy explains what personal information ${name} ("${shortName}", "we", "us") collects, how we use and protect it, and the choices you have. It applies to our website, our customer portal, and the services we provide.

## Information we collect
- **Personal information:** your name, e-mail address, phone number and service address, including your ZIP code.
- **Pet information:** the number of dogs and anything you tell us about them that affects the visit, such as a dog that must stay inside.
- **Service details:** your plan, the size of your yard, gate codes or access notes, visit dates and the notes our technicians record.
- **Payment information:** billing details needed to charge for services. Card numbers are handled by our payment processor; we do not store full card numbers.
- **Service photos:** before and after photos or videos of your yard taken on each visit.
- **Technical information:** basic data your browser sends when you visit our website, such as pages viewed and the device type.

## How we use your information
- to give you quotes and schedule, perform and confirm visits;
- to send photo confirmations and show your service history in your customer portal;
- to bill you for services and keep accounting records;
- to answer your questions, complaints and refund requests;
- to keep our website and portal secure and working;
- to send you service updates and, if you agree, occasional offers (you can opt out at any time).

## How we protect your information
- We **never sell** your personal information.
- Data is sent over encrypted connections, and stored passwords are protected with strong one-way hashing.
- Access is limited to staff and providers who **need to know** it to serve you.
- Service photos are private: only you and our staff can see the photos of your yard.

## When we share information
We share information only when needed:
- **Service providers** who help us run the business, such as hosting, e-mail, scheduling and payment processing, under agreements that require them to protect it;
- **Legal requirements**, when the law, a court order or the protection of someone's safety requires it;
- **Business transfer**, if the business is sold or merged, in which case your information stays protected by this policy.

## Your rights and choices
You can ask us to:
- **access** the personal information we hold about you;
- **correct** information that is wrong or out of date;
- **delete** your information, unless we must keep it by law (for example billing records);
- **opt out** of marketing messages at any time.

To make a request, e-mail ${mail} or call ${call}. We will answer within 30 days.

## Cookies
Our website uses a small number of cookies that are needed for it to work, such as the cookie that keeps you signed in to the customer portal. Accessibility preferences such as text size and dark mode are stored in your own browser and are not sent to us. We do not use advertising cookies.

## How long we keep information
We keep account and service records for as long as you are a customer and for up to three years afterwards, and billing records for as long as tax law requires. Service photos are kept for 12 months after the visit unless you ask us to delete them sooner.

## Children
Our services and website are not directed at children under 18, and we do not knowingly collect information from anyone under 18. If you believe a child has given us information, contact us and we will delete it.

## Changes to this policy
We may update this policy from time to time. The date at the top of this page shows when it last changed. If we make a significant change, we will tell customers by e-mail.

## Contact us
Questions about your privacy? E-mail ${mail} or call ${call}, ${hours}.
`

const disclaimer = `
Please read this disclaimer before using the ${name} website or booking a service.

## General information
The information on this website is provided for general information about our services. We try to keep it accurate and up to date, but it may change without notice.

## Results may vary
Every yard is different. How clean a yard stays, how long a deodorizing treatment lasts and how well odors are controlled depend on the number of dogs, the yard surface, the weather and how the yard is used between visits. Descriptions such as "freshness that lasts 2–4 weeks" are typical results, not promises for every property.

## No warranties
Except for the guarantees stated in our [Terms of Service](/terms-of-service), our website and its content are provided "as is", without warranties of any kind, whether express or implied.

## Limitation of liability
To the fullest extent permitted by law, ${shortName} is not liable for any loss or damage arising from the use of this website or reliance on its content. Liability for our services is limited as set out in our [Terms of Service](/terms-of-service), to the amount paid for the most recent service.

## Not professional advice
Content on this website about pet health, parasites, hygiene or yard care is general information. It is not veterinary, medical or legal advice. Ask your veterinarian about your pet's health.

## External links
Our website links to other websites, such as our social media pages and our online booking calendar. We do not control those websites and are not responsible for their content, availability or privacy practices.

## Pricing and availability
Prices, services and service areas shown on this website are subject to change and to availability on your route. Your quote or booking confirmation shows the price that applies to you.

## Testimonials
Customer reviews and testimonials reflect the experience of those customers. They do not guarantee that you will have the same results.

## Errors and omissions
Despite our care, the website may contain errors, typing mistakes or out-of-date information. We may correct them at any time, and we are not bound by an obvious error in a price or description.

## Contact us
Questions about this disclaimer? E-mail ${mail} or call ${call}.
`

const accessibility = `
${name} wants every visitor to be able to use our website, request a quote and manage their service, whatever their abilities or the device they use.

## Our commitment
We aim to meet the Web Content Accessibility Guidelines (WCAG) 2.1 at level AA. We test our pages with automated checks, with a keyboard only, and with screen readers, and we fix the problems we find.

## Accessibility features on this website
- A "Skip to main content" link at the top of every page.
- An accessibility panel, opened with the round button at the bottom right of every page, where you can change the text size and switch on dark mode, high contrast, highlighted links and reduced motion. Your choices are saved in your browser.
- Every page and form works with a keyboard alone, and every form field has a visible label.
- Text alternatives for meaningful images.
- Pages and forms that work even when JavaScript is turned off.
- Colors chosen for readable contrast between text and background.

## Known limitations
Our online booking calendar is provided by a third party. We have chosen a provider that works with keyboards and screen readers, but we do not control its pages. If you have any trouble booking online, call us and we will book the visit for you.

## Feedback and help
If you find a barrier on our website, or need information in a different format, please tell us:
- E-mail: ${mail}
- Phone: ${call}, ${hours}

We reply to accessibility feedback **within 2 business days**. Please tell us the page address and describe the problem; we will work with you to find a solution and, where we can, fix it for everyone.

## Other ways to reach our services
Everything you can do on this website you can also do by phone or e-mail: ask for a quote, book, reschedule or cancel a visit, or ask about your service history.
`

export const legalPages: LegalSource[] = [
  {
    slug: 'terms-of-service',
    title: 'Terms of Service',
    seoTitle: 'Terms of Service | Swift Scoop',
    seoDescription:
      'Terms for Swift Scoop services: 24-hour cancellation notice, our No Mess Guarantee, refunds, liability and arbitration in Nye County, Nevada.',
    body: terms,
  },
  {
    slug: 'privacy-policy',
    title: 'Privacy Policy',
    seoTitle: 'Privacy Policy | Swift Scoop',
    seoDescription:
      'How Swift Scoop collects, uses, protects and shares your personal information, pet details and service photos, and how to exercise your privacy rights.',
    body: privacy,
  },
  {
    slug: 'disclaimer',
    title: 'Disclaimer',
    seoTitle: 'Disclaimer | Swift Scoop',
    seoDescription:
      'The limits of the information on the Swift Scoop website: results may vary, no warranties, pricing and availability subject to change, and external links.',
    body: disclaimer,
  },
  {
    slug: 'accessibility',
    title: 'Accessibility Statement',
    seoTitle: 'Accessibility Statement | Swift Scoop',
    seoDescription:
      'Swift Scoop’s commitment to an accessible website: features, known limitations and how to send accessibility feedback, answered within 2 business days.',
    body: accessibility,
  },
]
