/**
 * The words of a receipt outside the web app (its PDF and its mail), in the learner's language.
 * The web page has the same words in its locale files; these are the server's own.
 */
import type { Lang } from "../../lib/format";

export type ReceiptLang = Lang;

type ReceiptWords = {
  title: string;
  sep: string;
  number: string;
  date: string;
  seller: string;
  taxId: string;
  buyer: string;
  item: string;
  plan: (name: string) => string;
  amount: string;
  total: string;
  status: string;
  paid: string;
  method: string;
  providers: Record<string, string>;
  footer: string;
};

export const receiptTexts: Record<Lang, ReceiptWords> = {
  fr: {
    title: "Reçu",
    sep: " : ",
    number: "Numéro",
    date: "Date du paiement",
    seller: "Vendeur",
    taxId: "Identifiant",
    buyer: "Client",
    item: "Désignation",
    plan: (name: string) => `Abonnement Parlons « ${name} »`,
    amount: "Montant",
    total: "Total payé",
    status: "Statut",
    paid: "Payé",
    method: "Moyen de paiement",
    providers: { paypal: "PayPal", demo: "Démonstration (aucun argent versé)" } as Record<string, string>,
    footer: "Ce reçu atteste d'un paiement reçu. Conservez-le pour vos dossiers.",
  },
  en: {
    title: "Receipt",
    sep: ": ",
    number: "Number",
    date: "Payment date",
    seller: "Seller",
    taxId: "Company ID",
    buyer: "Customer",
    item: "Description",
    plan: (name: string) => `Parlons subscription “${name}”`,
    amount: "Amount",
    total: "Total paid",
    status: "Status",
    paid: "Paid",
    method: "Payment method",
    providers: { paypal: "PayPal", demo: "Demo (no money moved)" } as Record<string, string>,
    footer: "This receipt confirms a payment received. Keep it for your records.",
  },
  es: {
    title: "Recibo",
    sep: ": ",
    number: "Número",
    date: "Fecha del pago",
    seller: "Vendedor",
    taxId: "Identificación fiscal",
    buyer: "Cliente",
    item: "Descripción",
    plan: (name: string) => `Suscripción Parlons «${name}»`,
    amount: "Importe",
    total: "Total pagado",
    status: "Estado",
    paid: "Pagado",
    method: "Medio de pago",
    providers: { paypal: "PayPal", demo: "Demostración (sin dinero real)" },
    footer: "Este recibo confirma un pago recibido. Guárdalo para tus registros.",
  },
};
