import { PERMISSIONS } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { LoadError } from "@/components/load-error";
import { NotFoundPage } from "@/components/not-found";
import { pagePath } from "@/lib/paths";
import { hasPermission, useSession } from "@/lib/session";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { isLegalPage, legalPageQuery } from "../api/legal-api";

/** The text's blocks: `## ` starts a heading, `- ` lines make a list, a blank line ends a paragraph. */
function Blocks({ body }: { body: string }) {
  return (
    <>
      {body.split(/\n\s*\n/).map((block, i) => {
        const key = `${i}-${block.slice(0, 16)}`;
        if (block.startsWith("## ")) {
          const [heading = "", ...rest] = block.split("\n");
          return (
            <section key={key}>
              <h2 className="heading heading--2">{heading.slice(3)}</h2>
              {rest.length > 0 && <p>{rest.join(" ")}</p>}
            </section>
          );
        }
        const lines = block.split("\n");
        if (lines.every((line) => line.startsWith("- "))) {
          return (
            <ul key={key}>
              {lines.map((line) => (
                <li key={line}>{line.slice(2)}</li>
              ))}
            </ul>
          );
        }
        return <p key={key}>{lines.join(" ")}</p>;
      })}
    </>
  );
}

/** For staff who can fill them in: the company details the page still lacks (visitors never see a blank). */
function MissingDetails({ missing }: { missing: string[] }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const { user } = useSession();
  if (missing.length === 0 || !hasPermission(user, PERMISSIONS.configsManage)) return null;
  const fields = missing
    .map((key) => t(`common:legalMissing.fields.${key}`, { defaultValue: key }))
    .join(", ");
  return (
    <div className="alert alert--info" role="status" data-testid="legal-missing">
      <div className="alert__content">
        <div className="alert__title">{t("common:legalMissing.title")}</div>
        <p>{t("common:legalMissing.text", { fields })}</p>
        <Link to={to(pagePath("configs"))}>{t("common:legalMissing.action")}</Link>
      </div>
    </div>
  );
}

/** `/legal/{page}`: legal notice, privacy policy, terms, cookies. Plain markup, rendered by the server. */
export function LegalPage() {
  const { page = "" } = useParams();
  const { t } = useTranslation();
  const lang = useLang();
  const known = isLegalPage(page);
  const query = useQuery({ ...legalPageQuery(known ? page : "legal-notice", lang), enabled: known });
  usePageTitle(query.data?.title ?? t("common:footer.legal"));
  if (!known) return <NotFoundPage />;
  if (query.isError) {
    return (
      <div className="container section">
        <LoadError query={query} />
      </div>
    );
  }
  if (!query.data) {
    return (
      <div className="container section" aria-busy="true">
        <div className="skeleton skeleton--title" />
        <div className="skeleton skeleton--line" />
        <div className="skeleton skeleton--line" />
      </div>
    );
  }
  return (
    <article className="container section legal-page" data-testid="legal-page">
      <h1 className="heading heading--1 page-title">{query.data.title}</h1>
      <MissingDetails missing={query.data.missing} />
      <Blocks body={query.data.body} />
    </article>
  );
}
