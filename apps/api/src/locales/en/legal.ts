import type { Catalogue } from "../fr";

/** The default legal pages in English (see ../fr/legal.ts). */
export const legal: Catalogue["legal"] = {
  "legal-notice": {
    title: "Legal notice",
    body: `## Publisher
The Parlons website is published by {{company_name}}.

- Legal form: {{legal_form}}
- Share capital: {{capital}}
- SIRET number: {{siret}}
- Registered office: {{address}}
- EU VAT number: {{vat_number}}
- Publication director: {{director}}
- Contact: {{email}}

## Hosting
The website is hosted by {{host_name}}.

- Host's address: {{host_address}}

## Intellectual property
The courses, audio recordings, texts and pictures of this website are protected by copyright. Any reproduction without the written consent of {{company_name}} is forbidden.

## Consumer mediation
Under article L612-1 of the French Consumer Code, you may refer a dispute to the consumer mediator free of charge: {{mediator}}.`,
  },
  privacy: {
    title: "Privacy policy",
    body: `## Controller
{{company_name}}, {{address}}, is the controller of your personal data. Contact: {{email}}.

## Data and purposes
We process your email address, name, language, course progress, subscriptions and payments, event bookings and notifications, to provide the service (performance of the contract), to invoice (legal obligation) and to write to you about your account. Payments are processed by PayPal; we never see your card details.

## Retention
Account data is kept while the account is open. Accounting records (payments, receipts) are kept for ten years (article L123-22 of the French Commercial Code), with no other personal data than the law requires.

## Your rights
You can access, correct and download your data (portability) and delete your account from your profile, under "My data". For any other request (objection, restriction), write to {{email}}. You may also complain to the CNIL (www.cnil.fr).

## Recipients
Your data is never sold or shared. It is available to our team and our processors: the host {{host_name}}, and PayPal for payments.`,
  },
  terms: {
    title: "Terms of sale and use",
    body: `## Purpose
These terms govern the use of the Parlons website and the sale of subscriptions to the audio courses offered by {{company_name}}.

## Account
Signing up is free. You are responsible for keeping your password secret. You can delete your account at any time from your profile.

## Plans and prices
The free plan opens the lessons marked as free. Premium plans open every lesson for the length of the subscription. Prices are shown in euros, all taxes included, on the Pricing page.

## Payment and renewal
Subscriptions are paid through PayPal and renewed automatically each period. You can cancel at any time from the Billing page: premium access stays open until the end of the paid period. A receipt is issued for every payment.

## Right of withdrawal
You have fourteen days to withdraw (article L221-18 of the French Consumer Code). By opening premium lessons at once, you ask for the service to start before that period ends and waive your right of withdrawal for the period begun (article L221-28).

## Liability and disputes
{{company_name}} strives to keep the service available but cannot guarantee it. These terms are governed by French law. In a dispute, you may refer to the mediator {{mediator}} before going to court.`,
  },
  cookies: {
    title: "Cookies",
    body: `## The cookies we use
Parlons only uses cookies that the website needs to work, which need no consent (article 82 of the French Data Protection Act):

- i18n_redirected: remembers the language you chose (365 days);
- auth.refresh: keeps your session open securely (sent to the sign-in addresses only);
- parlons.session: tells the server which session opens a staff page (it gives access to no data).

## No analytics, no advertising
We use no analytics, advertising or social network cookies. That is why no consent banner is shown.

## Managing them
You can delete these cookies in your browser's settings; you will then choose your language again and sign in again.`,
  },
};
