/**
 * The built-in transactional mails in French: what a mail Parlons sends itself says when no
 * active template of its slug in `email_templates` replaces it (the seeded templates start with
 * these texts). `{{variables}}` are the contract's `MAIL_VARIABLES` (modules/mail/transactional.ts).
 */
export const mail = {
  activation: {
    subject: "Activez votre compte Parlons",
    body: `Bonjour {{full_name}},

Bienvenue sur Parlons ! Confirmez votre adresse e-mail pour commencer à apprendre.

Activer mon compte : {{action_url}}

Ce lien est valable 48 heures.`,
  },
  welcome: {
    subject: "Bienvenue sur Parlons",
    body: `Bonjour {{full_name}},

Votre compte est prêt. Bonne écoute !

Ouvrir Parlons : {{action_url}}`,
  },
  "password-reset": {
    subject: "Réinitialisez votre mot de passe Parlons",
    body: `Bonjour {{full_name}},

Une demande de réinitialisation du mot de passe de votre compte Parlons a été faite. Si c'était vous, choisissez un nouveau mot de passe avec ce lien, valable une heure :

{{action_url}}

Sinon, ignorez ce message : votre mot de passe reste inchangé.`,
  },
  "payment-receipt": {
    subject: "Votre reçu Parlons",
    body: `Bonjour {{full_name}},

Merci ! Nous avons bien reçu votre paiement pour l'offre {{plan_name}}.

{{details}}

Votre reçu, à imprimer ou à télécharger en PDF : {{action_url}}`,
  },
  "event-booked": {
    subject: "Votre place est réservée",
    body: `Bonjour {{full_name}},

Votre réservation est confirmée :

{{details}}

L'invitation jointe (.ics) l'ajoute à votre agenda. Détails et annulation : {{action_url}}`,
  },
  "event-reminder": {
    subject: "Rappel : votre événement Parlons a lieu demain",
    body: `Bonjour {{full_name}},

À demain !

{{details}}

Détails : {{action_url}}`,
  },
  "study-reminder": {
    subject: "Quelques minutes de Parlons aujourd'hui ?",
    body: `Bonjour {{full_name}},

Vous n'avez pas encore étudié aujourd'hui. Quelques minutes d'écoute ou de révision suffisent pour garder votre série.

{{details}}

Reprendre : {{action_url}}`,
  },
  "account-locked": {
    subject: "Votre compte Parlons est verrouillé",
    body: `Bonjour {{full_name}},

Trop de mots de passe erronés ont été essayés sur votre compte Parlons : nous l'avons verrouillé pour une heure.

Si c'était vous, déverrouillez-le tout de suite avec ce lien, valable 24 heures :

{{action_url}}

Si ce n'était pas vous, quelqu'un essaie de deviner votre mot de passe : choisissez-en un nouveau, long et unique (« Mot de passe oublié » sur la page de connexion).`,
  },
  "new-device": {
    subject: "Nouvelle connexion à votre compte Parlons",
    body: `Bonjour {{full_name}},

Votre compte Parlons vient d'être ouvert depuis un appareil que vous n'aviez pas utilisé récemment :

{{details}}

Si c'était vous, il n'y a rien à faire. Sinon, mettez fin à cette session et changez votre mot de passe : {{action_url}}`,
  },
  "password-changed": {
    subject: "Le mot de passe de votre compte Parlons a changé",
    body: `Bonjour {{full_name}},

Le mot de passe de votre compte Parlons vient d'être changé ({{details}}). Les autres sessions ont été fermées.

Si c'était vous, il n'y a rien à faire. Sinon, choisissez tout de suite un nouveau mot de passe avec « Mot de passe oublié » : {{action_url}}`,
  },
};
