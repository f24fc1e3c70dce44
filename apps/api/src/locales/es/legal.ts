import type { Catalogue } from "../fr";

/** The default legal pages in Spanish (see ../fr/legal.ts). */
export const legal: Catalogue["legal"] = {
  "legal-notice": {
    title: "Aviso legal",
    body: `## Editor
El sitio web Parlons lo edita {{company_name}}.

- Forma jurídica: {{legal_form}}
- Capital social: {{capital}}
- Número SIRET: {{siret}}
- Domicilio social: {{address}}
- Número de IVA intracomunitario: {{vat_number}}
- Director de la publicación: {{director}}
- Contacto: {{email}}

## Alojamiento
El sitio web está alojado por {{host_name}}.

- Dirección del proveedor de alojamiento: {{host_address}}

## Propiedad intelectual
Los cursos, grabaciones de audio, textos e imágenes de este sitio están protegidos por derechos de autor. Queda prohibida cualquier reproducción sin el consentimiento escrito de {{company_name}}.

## Mediación de consumo
Conforme al artículo L612-1 del Código de consumo francés, puedes someter gratuitamente un litigio al mediador de consumo: {{mediator}}.`,
  },
  privacy: {
    title: "Política de privacidad",
    body: `## Responsable del tratamiento
{{company_name}}, {{address}}, es responsable del tratamiento de tus datos personales. Contacto: {{email}}.

## Datos tratados y finalidades
Tratamos tu dirección de correo, tu nombre, tu idioma, tu progreso en los cursos, tus suscripciones y pagos, tus reservas de eventos y tus notificaciones, para prestar el servicio (ejecución del contrato), facturar (obligación legal) y escribirte sobre tu cuenta. Los pagos los procesa PayPal; nunca vemos los datos de tu tarjeta.

## Plazos de conservación
Los datos de la cuenta se conservan mientras la cuenta esté abierta. Los justificantes contables (pagos, recibos) se conservan diez años (artículo L123-22 del Código de comercio francés), sin más datos personales que los que exige la ley.

## Tus derechos
Puedes acceder a tus datos, rectificarlos, descargarlos (portabilidad) y eliminar tu cuenta desde tu perfil, apartado «Mis datos». Para cualquier otra solicitud (oposición, limitación), escribe a {{email}}. También puedes acudir a la CNIL (www.cnil.fr).

## Destinatarios
Tus datos no se venden ni se ceden. Solo acceden a ellos nuestro equipo y nuestros encargados del tratamiento: el proveedor de alojamiento {{host_name}} y PayPal para los pagos.`,
  },
  terms: {
    title: "Condiciones de venta y de uso",
    body: `## Objeto
Estas condiciones regulan el uso del sitio Parlons y la venta de suscripciones a los cursos de audio que ofrece {{company_name}}.

## Cuenta
El registro es gratuito. Eres responsable de mantener en secreto tu contraseña. Puedes eliminar tu cuenta en cualquier momento desde tu perfil.

## Planes y precios
El plan gratuito abre las lecciones marcadas como gratuitas. Los planes premium abren todas las lecciones durante la suscripción. Los precios se indican en euros, impuestos incluidos, en la página de precios.

## Pago y renovación
La suscripción se paga mediante PayPal y se renueva automáticamente en cada periodo. Puedes cancelarla en cualquier momento desde la página Facturación: el acceso premium sigue abierto hasta el final del periodo pagado. Se emite un recibo por cada pago.

## Derecho de desistimiento
Dispones de catorce días para desistir (artículo L221-18 del Código de consumo francés). Al abrir de inmediato las lecciones premium, pides que el servicio empiece antes de que termine ese plazo y renuncias a tu derecho de desistimiento para el periodo iniciado (artículo L221-28).

## Responsabilidad y litigios
{{company_name}} procura mantener el servicio disponible, sin poder garantizarlo. Estas condiciones se rigen por el derecho francés. En caso de litigio, puedes acudir al mediador {{mediator}} antes de cualquier acción judicial.`,
  },
  cookies: {
    title: "Cookies",
    body: `## Las cookies que usamos
Parlons solo usa cookies necesarias para el funcionamiento del sitio, exentas de consentimiento (artículo 82 de la ley francesa de protección de datos):

- i18n_redirected: recuerda el idioma que elegiste (365 días);
- auth.refresh: mantiene tu sesión abierta de forma segura (solo se envía a las direcciones de inicio de sesión);
- parlons.session: indica al servidor qué sesión abre una página reservada al equipo (no da acceso a ningún dato).

## Sin medición de audiencia ni publicidad
No usamos ninguna cookie de medición de audiencia, publicidad ni redes sociales. Por eso no se muestra ningún aviso de consentimiento.

## Gestionarlas
Puedes eliminar estas cookies en los ajustes de tu navegador; tendrás que volver a elegir tu idioma y a iniciar sesión.`,
  },
};
