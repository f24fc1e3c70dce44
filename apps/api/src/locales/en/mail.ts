import type { Catalogue } from "../fr";

/** The built-in transactional mails in English (see ../fr/mail.ts). */
export const mail: Catalogue["mail"] = {
  activation: {
    subject: "Activate your Parlons account",
    body: `Hello {{full_name}},

Welcome to Parlons! Confirm your email address to start learning.

Activate my account: {{action_url}}

This link is valid for 48 hours.`,
  },
  welcome: {
    subject: "Welcome to Parlons",
    body: `Hello {{full_name}},

Your account is ready. Happy listening!

Open Parlons: {{action_url}}`,
  },
  "password-reset": {
    subject: "Reset your Parlons password",
    body: `Hello {{full_name}},

Someone asked to reset the password of your Parlons account. If it was you, choose a new password with this link, valid for one hour:

{{action_url}}

If it was not you, ignore this message: your password stays the same.`,
  },
  "payment-receipt": {
    subject: "Your Parlons receipt",
    body: `Hello {{full_name}},

Thank you! We have received your payment for the {{plan_name}} plan.

{{details}}

Your receipt, to print or download as a PDF: {{action_url}}`,
  },
  "event-booked": {
    subject: "Your place is booked",
    body: `Hello {{full_name}},

Your booking is confirmed:

{{details}}

The attached invitation (.ics) adds it to your calendar. Details and cancellation: {{action_url}}`,
  },
  "event-reminder": {
    subject: "Reminder: your Parlons event is tomorrow",
    body: `Hello {{full_name}},

See you tomorrow!

{{details}}

Details: {{action_url}}`,
  },
  "study-reminder": {
    subject: "A few minutes of Parlons today?",
    body: `Hello {{full_name}},

You have not studied yet today. A few minutes of listening or review keep your streak going.

{{details}}

Continue: {{action_url}}`,
  },
  "account-locked": {
    subject: "Your Parlons account is locked",
    body: `Hello {{full_name}},

Too many wrong passwords were tried on your Parlons account: we have locked it for an hour.

If it was you, unlock it now with this link, valid for 24 hours:

{{action_url}}

If it was not you, someone is trying to guess your password: choose a new, long and unique one ("Forgot password" on the sign-in page).`,
  },
  "new-device": {
    subject: "New sign-in to your Parlons account",
    body: `Hello {{full_name}},

Your Parlons account was just signed in to from a device you had not used recently:

{{details}}

If it was you, there is nothing to do. If not, end that session and change your password: {{action_url}}`,
  },
  "password-changed": {
    subject: "Your Parlons password was changed",
    body: `Hello {{full_name}},

The password of your Parlons account was just changed ({{details}}). Your other sessions were ended.

If it was you, there is nothing to do. If not, choose a new password now with "Forgot password": {{action_url}}`,
  },
};
