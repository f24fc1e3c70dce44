import type { Plan } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useAuthModals } from "@/components/auth-modal-context";
import { PlainButton, PlainButtonLink } from "@/components/plain-button";
import { chooseSignupCourse } from "@/features/auth/api/signup-course";
import { activePlansQuery } from "@/features/billing/api/plan-queries";
import { offerReach, offersFor } from "@/features/billing/lib/offers";
import { formatMoney, planName } from "@/lib/format";
import { pagePath } from "@/lib/paths";
import { useSession } from "@/lib/session";
import { useLang, useLocalePath } from "@/lib/use-locale";

/**
 * The offers that open this course (its single-course plan, plans of several courses naming it,
 * plans of every course), for a reader it is not open to. A visitor signs up from here with the
 * course remembered (`course_id`); a learner goes to the checkout of the plan. Plain markup: the
 * course page is public.
 */
export function CourseOffers({ courseId }: { courseId: string }) {
  const { t } = useTranslation();
  const plans = useQuery(activePlansQuery);
  const offers = offersFor(plans.data ?? [], courseId);
  if (offers.length === 0) return null;
  return (
    <section aria-labelledby="offers-title" className="course-offers" data-testid="course-offers">
      <h2 className="heading heading--3" id="offers-title">
        {t("courses:offers.title")}
      </h2>
      <ul className="course-offers__list">
        {offers.map((plan) => (
          <Offer key={plan.id} plan={plan} courseId={courseId} />
        ))}
      </ul>
    </section>
  );
}

function Offer({ plan, courseId }: { plan: Plan; courseId: string }) {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const { status, user } = useSession();
  const modals = useAuthModals();
  const name = planName(plan, lang);
  const reach = offerReach(plan);
  const current = user?.plan_id === plan.id;
  return (
    <li className="card course-offers__item" data-testid="course-offer" data-plan-id={plan.id}>
      <div className="card__body course-offers__body">
        <div>
          <strong>{name}</strong>
          <div className="text-secondary">
            {t(`courses:offers.reach.${reach.key}`, { count: reach.count })}
          </div>
        </div>
        <div className="course-offers__price">
          <strong>{formatMoney(plan.amount, plan.currency, lang)}</strong>{" "}
          <span className="text-secondary">{t(`courses:offers.interval.${plan.interval}`)}</span>
        </div>
        {current ? (
          <span className="tag tag--green">{t("courses:offers.current")}</span>
        ) : status === "authenticated" ? (
          <PlainButtonLink kind="primary" to={to(pagePath("upgradePayment", {}, { plan: plan.id }))}>
            {t(plan.interval === "once" ? "courses:offers.buy" : "courses:offers.choose", { plan: name })}
          </PlainButtonLink>
        ) : (
          <PlainButton
            kind="primary"
            onClick={() => {
              chooseSignupCourse(courseId);
              modals.show("signup");
            }}
          >
            {t("courses:offers.signup", { plan: name })}
          </PlainButton>
        )}
      </div>
    </li>
  );
}
