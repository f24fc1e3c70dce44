import type { Catalogue } from "../fr";

/** The built-in transactional mails in Spanish (see ../fr/mail.ts). */
export const mail: Catalogue["mail"] = {
  activation: {
    subject: "Activa tu cuenta de Parlons",
    body: `Hola, {{full_name}}:

¡Te damos la bienvenida a Parlons! Confirma tu dirección de correo para empezar a aprender.

Activar mi cuenta: {{action_url}}

Este enlace es válido durante 48 horas.`,
  },
  welcome: {
    subject: "Te damos la bienvenida a Parlons",
    body: `Hola, {{full_name}}:

Tu cuenta está lista. ¡Buena escucha!

Abrir Parlons: {{action_url}}`,
  },
  "password-reset": {
    subject: "Restablece tu contraseña de Parlons",
    body: `Hola, {{full_name}}:

Alguien ha pedido restablecer la contraseña de tu cuenta de Parlons. Si fuiste tú, elige una nueva contraseña con este enlace, válido durante una hora:

{{action_url}}

Si no fuiste tú, ignora este mensaje: tu contraseña no cambia.`,
  },
  "payment-receipt": {
    subject: "Tu recibo de Parlons",
    body: `Hola, {{full_name}}:

¡Gracias! Hemos recibido tu pago del plan {{plan_name}}.

{{details}}

Tu recibo, para imprimir o descargar en PDF: {{action_url}}`,
  },
  "event-booked": {
    subject: "Tu plaza está reservada",
    body: `Hola, {{full_name}}:

Tu reserva está confirmada:

{{details}}

La invitación adjunta (.ics) la añade a tu calendario. Detalles y cancelación: {{action_url}}`,
  },
  "event-reminder": {
    subject: "Recordatorio: tu evento de Parlons es mañana",
    body: `Hola, {{full_name}}:

¡Hasta mañana!

{{details}}

Detalles: {{action_url}}`,
  },
  "study-reminder": {
    subject: "¿Unos minutos de Parlons hoy?",
    body: `Hola, {{full_name}}:

Todavía no has estudiado hoy. Unos minutos de escucha o de repaso bastan para mantener tu racha.

{{details}}

Continuar: {{action_url}}`,
  },
  "account-locked": {
    subject: "Tu cuenta de Parlons está bloqueada",
    body: `Hola, {{full_name}}:

Se han probado demasiadas contraseñas incorrectas en tu cuenta de Parlons: la hemos bloqueado durante una hora.

Si fuiste tú, desbloquéala ahora con este enlace, válido durante 24 horas:

{{action_url}}

Si no fuiste tú, alguien intenta adivinar tu contraseña: elige una nueva, larga y única («¿Olvidaste tu contraseña?» en la página de inicio de sesión).`,
  },
  "new-device": {
    subject: "Nuevo inicio de sesión en tu cuenta de Parlons",
    body: `Hola, {{full_name}}:

Se acaba de iniciar sesión en tu cuenta de Parlons desde un dispositivo que no habías usado recientemente:

{{details}}

Si fuiste tú, no tienes que hacer nada. Si no, cierra esa sesión y cambia tu contraseña: {{action_url}}`,
  },
  "password-changed": {
    subject: "Se cambió la contraseña de tu cuenta de Parlons",
    body: `Hola, {{full_name}}:

Se acaba de cambiar la contraseña de tu cuenta de Parlons ({{details}}). Se cerraron tus otras sesiones.

Si fuiste tú, no tienes que hacer nada. Si no, elige ahora una contraseña nueva con «¿Olvidaste tu contraseña?»: {{action_url}}`,
  },
};
