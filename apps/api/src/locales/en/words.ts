import type { Catalogue } from "../fr";

/** The server's own words in English (keys and placeholders as in ../fr). */
export const words: Catalogue["words"] = {
  receipt: {
    title: "Receipt",
    sep: ": ",
    number: "Number",
    date: "Payment date",
    seller: "Seller",
    taxId: "Company ID",
    buyer: "Customer",
    item: "Description",
    plan: "Parlons subscription “{{name}}”",
    amount: "Amount",
    total: "Total paid",
    status: "Status",
    paid: "Paid",
    method: "Payment method",
    course: "Parlons course “{{name}}”, lifetime access",
    creditTitle: "Credit note",
    creditOf: "Cancels receipt",
    creditDate: "Refund date",
    totalRefunded: "Total refunded",
    refunded: "Refunded",
    creditFooter: "This credit note confirms the refund of the payment on the receipt it cancels.",
    listPrice: "Price",
    discount: "Discount (code {{code}})",
    providers: { paypal: "PayPal", demo: "Demo (no money moved)" },
    footer: "This receipt confirms a payment received. Keep it for your records.",
  },
  certificate: {
    title: "Certificate of completion",
    intro: "Parlons certifies that",
    completed: "has completed every lesson of the course",
    issued: "Issued on {{date}}",
    quoted: "“{{course}}”",
    code: "Code",
    sep: ": ",
    verify: "Verify this certificate at",
    revoked: "THIS CERTIFICATE HAS BEEN REVOKED",
  },
  streak: {
    line: "Your streak: {{days}}.",
    days_one: "{{count}} day",
    days_other: "{{count}} days",
  },
  push: {
    studyTitle: "A few minutes of Parlons today?",
    studyBody: "You have not studied yet today.",
    eventTitle: "Tomorrow: {{title}}",
    eventBody: "Your event starts on {{when}}.",
  },
  exportMail: {
    subject: "Parlons: your data is ready",
    text: "Hello,\n\nThe archive of your Parlons data is ready. Download it with this link, valid for 7 days:\n{{link}}\n\nIf you did not ask for it, ignore this message.",
  },
  eventLines: {
    online: "Online",
    places: "Places: {{count}}",
  },
  unsubscribe: {
    study_reminders: "Stop these study reminders",
    news: "Unsubscribe from Parlons news",
    new_device: "Stop the alerts of sign-ins from a new device",
  },
  podcast: {
    title: "Parlons: my lessons",
    description:
      "The lessons of the courses you follow on Parlons, to listen to in your podcast app. This feed is private: do not share its address.",
    author: "Parlons",
  },
  testMailPrefix: "[Test]",
};
