import type { Db } from "../client";
import { events } from "../schema/events";

export const DEMO_EVENT_SLUG = "club-de-conversation";

/**
 * The demo event "Club de conversation": online, 12 places, two weeks after the first start
 * at 18:00 UTC for an hour. Created once (by slug); later starts leave it alone.
 */
export async function seedDemoEvent(db: Db, now = new Date()): Promise<void> {
  const startsAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 14, 18));
  await db
    .insert(events)
    .values({
      slug: DEMO_EVENT_SLUG,
      titleFr: "Club de conversation",
      titleEn: "Conversation club",
      descriptionFr:
        "Une heure pour parler anglais en petit groupe avec un animateur : présentations, questions du quotidien, et les mots des leçons mis en pratique.",
      descriptionEn:
        "One hour of speaking English in a small group with a host: introductions, everyday questions, and the words of the lessons put to use.",
      translations: {
        es: {
          title: "Club de conversación",
          description:
            "Una hora para hablar inglés en un grupo pequeño con un anfitrión: presentaciones, preguntas cotidianas y las palabras de las lecciones puestas en práctica.",
        },
      },
      kind: "online",
      location: null,
      onlineUrl: "https://meet.example.com/parlons-club",
      startsAt,
      endsAt: new Date(startsAt.getTime() + 60 * 60 * 1000),
      capacity: 12,
      active: true,
    })
    .onConflictDoNothing({ target: events.slug });
}
