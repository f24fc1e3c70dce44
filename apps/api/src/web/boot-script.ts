import { createHash } from "node:crypto";

/**
 * The one inline script of a server-rendered page. The page's markup and styles are all in its
 * HTML, so its first paint needs no script: the app's entry and the chunks of the page's route
 * (named by the `#boot` JSON element) are asked for once the browser reports that paint
 * (`first-contentful-paint`; a frame then a task where paint timing is not supported), so
 * that hydration cannot hold the first paint back however fast they arrive (from the service
 * worker's cache, say). A tab opened in the background paints nothing: it starts at once.
 * Always the same text, so that the Content-Security-Policy allows it by its hash.
 */
export const BOOT_SCRIPT = [
  "(()=>{",
  'const b=JSON.parse(document.getElementById("boot").textContent);let started=false;',
  "const go=()=>{if(started)return;started=true;",
  'for(const f of b.modules){const l=document.createElement("link");l.rel="modulepreload";l.href=f;document.head.append(l)}',
  'const s=document.createElement("script");s.type="module";s.src=b.entry;document.head.append(s)};',
  'if(document.visibilityState==="hidden")go();',
  'else if(PerformanceObserver.supportedEntryTypes?.includes("paint")){',
  'new PerformanceObserver((l,o)=>{if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();setTimeout(go)}}).observe({type:"paint",buffered:true});',
  // a page that never paints content (nothing visible) still starts
  "setTimeout(go,3000)}",
  "else requestAnimationFrame(()=>setTimeout(go))",
  "})()",
].join("");

/** The CSP source that allows BOOT_SCRIPT and no other inline script. */
export const BOOT_SCRIPT_SOURCE = `'sha256-${createHash("sha256").update(BOOT_SCRIPT).digest("base64")}'`;
