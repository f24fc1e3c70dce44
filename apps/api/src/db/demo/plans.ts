import { eq, gt } from "drizzle-orm";
import type { Db } from "../client";
import { plans } from "../schema/plans";

/**
 * The demo's paid plans, seeded on a fresh install (no paid plan at all yet). Their features are
 * only what staff add to the list the pricing page derives from what a plan opens (every lesson,
 * downloads, events for subscribers): nothing the free plan already gives. The provider's
 * billing plans are created on first subscription (plans service `providerPlanIdOf`).
 */
export async function seedDemoPlans(db: Db): Promise<void> {
  const [paid] = await db.select({ id: plans.id }).from(plans).where(gt(plans.amount, 0)).limit(1);
  if (paid) return;
  const [premium] = await db.select({ id: plans.id }).from(plans).where(eq(plans.name, "Premium"));
  if (premium) return;
  await db.insert(plans).values([
    {
      name: "Premium",
      nameFr: "Premium",
      descriptionEn: "Every lesson of every course, month by month.",
      descriptionFr: "Toutes les leçons de tous les cours, mois par mois.",
      amount: 999,
      currency: "EUR",
      interval: "month",
      position: 1,
      featuresEn: ["Cancel at any time"],
      featuresFr: ["Résiliable à tout moment"],
      translations: {
        es: {
          name: "Premium",
          description: "Todas las lecciones de todos los cursos, mes a mes.",
          features: ["Cancela cuando quieras"],
        },
      },
    },
    {
      name: "Premium yearly",
      nameFr: "Premium annuel",
      descriptionEn: "Every lesson of every course for a year: two months free.",
      descriptionFr: "Toutes les leçons de tous les cours pendant un an : deux mois offerts.",
      amount: 9990,
      currency: "EUR",
      interval: "year",
      position: 2,
      featuresEn: ["Two months free"],
      featuresFr: ["Deux mois offerts"],
      translations: {
        es: {
          name: "Premium anual",
          description: "Todas las lecciones de todos los cursos durante un año: dos meses gratis.",
          features: ["Dos meses gratis"],
        },
      },
    },
  ]);
}
