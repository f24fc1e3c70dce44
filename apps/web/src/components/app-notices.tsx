import { OfflineBanner } from "./offline-banner";
import { Toaster } from "./toaster";
import { UpdatePrompt } from "./update-prompt";

/**
 * What the app says about itself, on every page: the offline banner, the new-version prompt and
 * the short messages of lib/toast.ts.
 * Rendered in a root of its own (main.tsx), beside the routes: server-rendered pages hydrate
 * exactly what the server sent.
 */
export function AppNotices() {
  return (
    <>
      <OfflineBanner />
      <UpdatePrompt />
      <Toaster />
    </>
  );
}
