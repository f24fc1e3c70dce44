/**
 * The default legal pages in French, for a French online course business (LCEN art. 6, GDPR
 * art. 13, Code de la consommation L221-5 and L221-28, CNIL's cookie guidance). `{{placeholders}}`
 * are filled from the `legal.company` configuration and the settings' contact e-mail; staff
 * replace a whole text with the configuration `legal.<page>.<lang>` (modules/legal/routes.ts).
 */
export const legal = {
  "legal-notice": {
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
  privacy: {
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
  terms: {
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
  cookies: {
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
};
