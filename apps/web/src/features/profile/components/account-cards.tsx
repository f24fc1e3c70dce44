import { PushCard } from "@/features/push/components/push-card";
import { DataRightsCard } from "./data-rights-card";
import { PasskeysCard } from "./passkeys-card";
import { PodcastCard } from "./podcast-card";
import { SessionsCard } from "./sessions-card";
import { TwoFactorCard } from "./two-factor-card";

/**
 * The profile's cards below its form: reminders on this device, sign-in security, sessions, the
 * podcast feed and data rights. A chunk of their own, loaded once the form shows.
 */
export default function AccountCards() {
  return (
    <>
      <PushCard />
      <TwoFactorCard />
      <PasskeysCard />
      <SessionsCard />
      <PodcastCard />
      <DataRightsCard />
    </>
  );
}
