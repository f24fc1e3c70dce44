/// <reference types="vite-plugin-pwa/vanillajs" />
// vite-plugin-pwa: virtual:pwa-register (main.tsx)

// build/public-texts.ts
declare module "virtual:public-texts" {
  const texts: import("./lib/i18n").Texts;
  export default texts;
}
declare module "virtual:shell-texts" {
  const texts: import("./lib/i18n").Texts;
  export default texts;
}
