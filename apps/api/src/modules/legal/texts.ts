import type { LegalPageSlug, Locale } from "@parlons/contract";

/**
 * Default legal texts for a French online course business (LCEN art. 6, GDPR art. 13, Code de la
 * consommation L221-5 and L221-28, CNIL's cookie guidance). `{{placeholders}}` are filled from the
 * `legal.company` configuration and the settings' contact e-mail; staff replace a whole text with
 * the configuration `legal.<page>.<lang>` (`{ "title": "...", "body": "..." }`).
 */
export const LEGAL_TEXTS: Record<LegalPageSlug, Record<Locale, { title: string; body: string }>> = {
  "legal-notice": {
    fr: {
      title: "Mentions légales",
      body: `## Éditeur du site
Le site Parlons est édité par {{company_name}}.

- Forme juridique : {{legal_form}}
- Capital social : {{capital}}
- SIRET : {{siret}}
- Siège social : {{address}}
- TVA intracommunautaire : {{vat_number}}
- Directeur de la publication : {{director}}
- Contact : {{email}}

## Hébergement
Le site est hébergé par {{host_name}}.

- Adresse de l'hébergeur : {{host_address}}

## Propriété intellectuelle
Les cours, enregistrements audio, textes et visuels du site sont protégés par le droit d'auteur. Toute reproduction sans autorisation écrite de {{company_name}} est interdite.

## Médiation de la consommation
Conformément à l'article L612-1 du Code de la consommation, vous pouvez recourir gratuitement au médiateur de la consommation : {{mediator}}.`,
    },
    en: {
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
    es: {
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
  },
  privacy: {
    fr: {
      title: "Politique de confidentialité",
      body: `## Responsable du traitement
{{company_name}}, {{address}}, est responsable du traitement de vos données personnelles. Contact : {{email}}.

## Données traitées et finalités
Nous traitons votre adresse e-mail, votre nom, votre langue, votre progression dans les cours, vos abonnements et paiements, vos réservations d'événements et vos notifications, pour fournir le service (exécution du contrat), facturer (obligation légale) et vous écrire au sujet de votre compte. Les paiements sont traités par PayPal ; nous ne voyons jamais vos données de carte.

## Durées de conservation
Les données du compte sont conservées tant que le compte est ouvert. Les pièces comptables (paiements, reçus) sont conservées dix ans (article L123-22 du Code de commerce), sans autre donnée personnelle que celles que la loi exige.

## Vos droits
Vous pouvez accéder à vos données, les rectifier, les télécharger (portabilité) et supprimer votre compte depuis votre profil, rubrique « Mes données ». Pour toute autre demande (opposition, limitation), écrivez à {{email}}. Vous pouvez aussi saisir la CNIL (www.cnil.fr).

## Destinataires
Vos données ne sont ni vendues ni cédées. Elles sont accessibles à notre équipe et à nos sous-traitants : l'hébergeur {{host_name}} et PayPal pour les paiements.`,
    },
    en: {
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
    es: {
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
  },
  terms: {
    fr: {
      title: "Conditions générales de vente et d'utilisation",
      body: `## Objet
Les présentes conditions régissent l'utilisation du site Parlons et la vente d'abonnements aux cours audio proposés par {{company_name}}.

## Compte
L'inscription est gratuite. Vous êtes responsable de la confidentialité de votre mot de passe. Vous pouvez supprimer votre compte à tout moment depuis votre profil.

## Offres et prix
La formule gratuite donne accès aux leçons marquées comme libres. Les formules premium donnent accès à toutes les leçons pendant la durée de l'abonnement. Les prix sont indiqués en euros toutes taxes comprises sur la page Tarifs.

## Paiement et renouvellement
L'abonnement est payé par PayPal et renouvelé automatiquement à chaque période. Vous pouvez le résilier à tout moment depuis la page Facturation : l'accès premium reste ouvert jusqu'à la fin de la période payée. Un reçu est émis pour chaque paiement.

## Droit de rétractation
Vous disposez de quatorze jours pour vous rétracter (article L221-18 du Code de la consommation). En accédant immédiatement aux leçons premium, vous demandez l'exécution du service avant la fin de ce délai et renoncez à votre droit de rétractation pour la période entamée (article L221-28).

## Responsabilité et litiges
{{company_name}} s'efforce d'assurer la disponibilité du service sans pouvoir la garantir. Les présentes conditions sont soumises au droit français. En cas de litige, vous pouvez recourir au médiateur {{mediator}} avant toute action en justice.`,
    },
    en: {
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
    es: {
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
  },
  cookies: {
    fr: {
      title: "Cookies",
      body: `## Les cookies que nous utilisons
Parlons n'utilise que des cookies nécessaires au fonctionnement du site, exemptés de consentement (article 82 de la loi Informatique et Libertés) :

- i18n_redirected : retient la langue que vous avez choisie (365 jours) ;
- auth.refresh : maintient votre session ouverte de façon sécurisée (limité aux adresses de connexion) ;
- parlons.session : indique au serveur quelle session ouvre une page réservée à l'équipe (il ne donne accès à aucune donnée).

## Ni mesure d'audience ni publicité
Nous n'utilisons aucun cookie de mesure d'audience, de publicité ou de réseau social. C'est pourquoi aucun bandeau de consentement ne s'affiche.

## Les gérer
Vous pouvez supprimer ces cookies dans les réglages de votre navigateur ; vous devrez alors choisir à nouveau votre langue et vous reconnecter.`,
    },
    en: {
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
    es: {
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
  },
};
