import { z } from "zod";
import { envelope } from "./common";

/**
 * "Where you are signed in": one live session of the caller. The device is read from the
 * browser's user agent (browser and system, no version: null when not recognised); the address
 * is only its network (IPv4 /24 as `203.0.113.x`, IPv6 /48 as `2001:db8:1::/48`).
 */
export const deviceSession = z
  .object({
    id: z.uuid(),
    browser: z.string().nullable(),
    os: z.string().nullable(),
    address: z.string().nullable(),
    createdAt: z.iso.datetime({ offset: true }),
    lastSeenAt: z.iso.datetime({ offset: true }),
    /** The session of the request that asked. */
    current: z.boolean(),
  })
  .meta({ id: "DeviceSession" });
export type DeviceSession = z.infer<typeof deviceSession>;

export const deviceSessionsResponse = envelope(z.array(deviceSession));

export const deviceSessionParams = z.object({ id: z.uuid({ error: "Not a session id" }) });

export const endedSessionsResponse = envelope(z.object({ ended: z.number().int() }));
export type EndedSessions = z.infer<typeof endedSessionsResponse>["data"];
