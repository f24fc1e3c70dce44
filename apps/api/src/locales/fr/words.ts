/** The short texts of the server's documents and mails in French (see ./index.ts). */
export const words = {
  /** A receipt's PDF and mail (billing/receipt-pdf.ts). */
  receipt: {
    title: "Facture",
    sep: " : ",
    number: "Numéro",
    date: "Date du paiement",
    seller: "Vendeur",
    taxId: "Identifiant",
    buyer: "Client",
    item: "Désignation",
    plan: "Abonnement Parlons « {{name}} »",
    amount: "Montant",
    total: "Total TTC payé",
    status: "Statut",
    paid: "Payé",
    method: "Moyen de paiement",
    course: "Cours Parlons « {{name}} », accès à vie",
    creditTitle: "Avoir",
    creditOf: "Annule la facture",
    creditDate: "Date du remboursement",
    totalRefunded: "Total remboursé",
    refunded: "Remboursé",
    creditFooter: "Cet avoir atteste du remboursement du paiement de la facture qu'il annule.",
    listPrice: "Prix",
    discount: "Remise (code {{code}})",
    providers: { paypal: "PayPal", demo: "Démonstration (aucun argent versé)" },
    footer: "Cette facture atteste d'un paiement reçu. Conservez-la pour vos dossiers.",
    vatNumber: "N° de TVA intracommunautaire",
    country: "Pays",
    vatRate: "TVA",
    netTotal: "Total HT",
    vatLine: "TVA {{rate}}",
    vatExempt: "TVA non applicable, art. 293 B du CGI",
    vatOutsideEu: "TVA non applicable, client établi hors de l'Union européenne (art. 259 B du CGI)",
    pricesTaxIncluded: "Prix toutes taxes comprises.",
  },
  /** A certificate's PDF (certificates/certificate-pdf.ts). */
  certificate: {
    title: "Certificat de réussite",
    intro: "Parlons certifie que",
    completed: "a terminé toutes les leçons du cours",
    issued: "Délivré le {{date}}",
    quoted: "« {{course}} »",
    code: "Code",
    sep: " : ",
    verify: "Vérifiez ce certificat sur",
    revoked: "CE CERTIFICAT A ÉTÉ RÉVOQUÉ",
  },
  /** The streak line of a study reminder (habit/reminder-text.ts); `_one`/`_other` by the language's plural rule. */
  streak: {
    line: "Votre série : {{days}}.",
    days_one: "{{count}} jour",
    days_other: "{{count}} jours",
  },
  /** Reminders sent as notifications (habit and events, through modules/push). */
  push: {
    studyTitle: "Quelques minutes de Parlons aujourd'hui ?",
    studyBody: "Vous n'avez pas encore étudié aujourd'hui.",
    eventTitle: "Demain : {{title}}",
    eventBody: "Votre événement commence le {{when}}.",
  },
  /** The mail that brings a data export's link (privacy/export-mail.ts). */
  exportMail: {
    subject: "Parlons : vos données sont prêtes",
    text: "Bonjour,\n\nL'archive de vos données Parlons est prête. Téléchargez-la avec ce lien, valable 7 jours :\n{{link}}\n\nSi vous n'avez rien demandé, ignorez ce message.",
  },
  /** An event's lines in a mail (events/mails.ts). */
  eventLines: {
    online: "En ligne",
    places: "Places : {{count}}",
  },
  /** The unsubscribe paragraph at the foot of a mail (mail/preferences-service.ts), by kind of mail. */
  unsubscribe: {
    study_reminders: "Ne plus recevoir ces rappels",
    news: "Se désabonner des nouvelles de Parlons",
    new_device: "Ne plus être prévenu des connexions depuis un nouvel appareil",
  },
  /** The learner's private podcast feed (podcast/feed-xml.ts). */
  podcast: {
    title: "Parlons : mes leçons",
    description:
      "Les leçons des cours que vous suivez sur Parlons, à écouter dans votre application de podcasts. Ce flux est privé : ne partagez pas son adresse.",
    author: "Parlons",
    sessionTitle: "Séance mains libres",
    sessionDescription:
      "Les phrases à réviser aujourd’hui, sans les mains : chaque phrase à répéter après elle, ou à dire depuis sa traduction avant de l’entendre.",
  },
  /** Before the subject of a campaign's test mail to its sender (mail/campaign-service.ts). */
  testMailPrefix: "[Essai]",
};
