import type { Catalogue } from "../fr";

/**
 * The server's own words in Spanish (keys and placeholders as in ../fr). Every text here is
 * translated; a text added without its Spanish copies the English one and says so beside it.
 */
export const words: Catalogue["words"] = {
  receipt: {
    title: "Factura",
    sep: ": ",
    number: "Número",
    date: "Fecha del pago",
    seller: "Vendedor",
    taxId: "Identificación fiscal",
    buyer: "Cliente",
    item: "Descripción",
    plan: "Suscripción Parlons «{{name}}»",
    amount: "Importe",
    total: "Total pagado con IVA",
    status: "Estado",
    paid: "Pagado",
    method: "Medio de pago",
    course: "Curso Parlons «{{name}}», acceso de por vida",
    creditTitle: "Factura rectificativa",
    creditOf: "Anula la factura",
    creditDate: "Fecha del reembolso",
    totalRefunded: "Total reembolsado",
    refunded: "Reembolsado",
    creditFooter: "Esta factura rectificativa certifica el reembolso del pago de la factura que anula.",
    listPrice: "Precio",
    discount: "Descuento (código {{code}})",
    providers: { paypal: "PayPal", demo: "Demostración (sin dinero real)" },
    footer: "Esta factura certifica un pago recibido. Guárdala para tus registros.",
    vatNumber: "NIF-IVA intracomunitario",
    country: "País",
    vatRate: "IVA",
    netTotal: "Total sin IVA",
    vatLine: "IVA {{rate}}",
    vatExempt: "IVA no aplicable, art. 293 B del Código General de Impuestos francés",
    vatOutsideEu:
      "IVA no aplicable: cliente establecido fuera de la Unión Europea (art. 259 B del Código General de Impuestos francés)",
    pricesTaxIncluded: "Precios con IVA incluido.",
  },
  certificate: {
    title: "Certificado de aprovechamiento",
    intro: "Parlons certifica que",
    completed: "ha terminado todas las lecciones del curso",
    issued: "Expedido el {{date}}",
    quoted: "«{{course}}»",
    code: "Código",
    sep: ": ",
    verify: "Verifica este certificado en",
    revoked: "ESTE CERTIFICADO HA SIDO REVOCADO",
  },
  streak: {
    line: "Tu racha: {{days}}.",
    days_one: "{{count}} día",
    days_other: "{{count}} días",
  },
  push: {
    studyTitle: "¿Unos minutos de Parlons hoy?",
    studyBody: "Todavía no has estudiado hoy.",
    eventTitle: "Mañana: {{title}}",
    eventBody: "Tu evento empieza el {{when}}.",
  },
  exportMail: {
    subject: "Parlons: tus datos están listos",
    text: "Hola:\n\nEl archivo con tus datos de Parlons está listo. Descárgalo con este enlace, válido durante 7 días:\n{{link}}\n\nSi no lo has pedido, ignora este mensaje.",
  },
  eventLines: {
    online: "En línea",
    places: "Plazas: {{count}}",
  },
  unsubscribe: {
    study_reminders: "No recibir más estos recordatorios",
    news: "Darse de baja de las novedades de Parlons",
    new_device: "No recibir más avisos de inicios de sesión desde un dispositivo nuevo",
  },
  podcast: {
    title: "Parlons: mis lecciones",
    description:
      "Las lecciones de los cursos que sigues en Parlons, para escucharlas en tu aplicación de pódcasts. Este canal es privado: no compartas su dirección.",
    author: "Parlons",
    sessionTitle: "Sesión manos libres",
    sessionDescription:
      "Las frases que repasar hoy, sin manos: cada frase para repetirla tras oírla, o para decirla a partir de su traducción antes de oírla.",
  },
  testMailPrefix: "[Prueba]",
};
