/** Transactional messages in the user's language. Values are escaped in the HTML part. */
type Lang = "FR" | "EN";

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

function render(lines: string[], link?: { url: string; label: string }) {
  const text = [...lines, ...(link ? ["", link.url] : [])].join("\n");
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">${lines
    .map((l) => `<p>${escapeHtml(l)}</p>`)
    .join("")}${
    link
      ? `<p><a href="${escapeHtml(link.url)}" style="background:#1d4ed8;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(link.label)}</a></p><p style="color:#555;font-size:13px">${escapeHtml(link.url)}</p>`
      : ""
  }</body></html>`;
  return { text, html };
}

export function activationMail(lang: Lang, name: string, url: string) {
  if (lang === "EN") {
    return {
      subject: "Activate your Parlons account",
      ...render(
        [
          `Hello ${name},`,
          "Welcome to Parlons! Confirm your email address to start learning.",
          "This link is valid for 48 hours.",
        ],
        { url, label: "Activate my account" },
      ),
    };
  }
  return {
    subject: "Activez votre compte Parlons",
    ...render(
      [
        `Bonjour ${name},`,
        "Bienvenue sur Parlons ! Confirmez votre adresse e-mail pour commencer à apprendre.",
        "Ce lien est valable 48 heures.",
      ],
      { url, label: "Activer mon compte" },
    ),
  };
}

export function welcomeMail(lang: Lang, name: string, url: string) {
  if (lang === "EN") {
    return {
      subject: "Welcome to Parlons",
      ...render([`Hello ${name},`, "Your account is ready. Happy listening!"], {
        url,
        label: "Open Parlons",
      }),
    };
  }
  return {
    subject: "Bienvenue sur Parlons",
    ...render([`Bonjour ${name},`, "Votre compte est prêt. Bonne écoute !"], {
      url,
      label: "Ouvrir Parlons",
    }),
  };
}

export function passwordResetMail(lang: Lang, name: string, url: string) {
  if (lang === "EN") {
    return {
      subject: "Reset your Parlons password",
      ...render(
        [
          `Hello ${name},`,
          "Someone asked to reset the password of your Parlons account. If it was you, choose a new password below; this link is valid for one hour.",
          "If it was not you, ignore this message: your password stays the same.",
        ],
        { url, label: "Choose a new password" },
      ),
    };
  }
  return {
    subject: "Réinitialisez votre mot de passe Parlons",
    ...render(
      [
        `Bonjour ${name},`,
        "Une demande de réinitialisation du mot de passe de votre compte Parlons a été faite. Si c'était vous, choisissez un nouveau mot de passe ci-dessous ; ce lien est valable une heure.",
        "Sinon, ignorez ce message : votre mot de passe reste inchangé.",
      ],
      { url, label: "Choisir un nouveau mot de passe" },
    ),
  };
}
