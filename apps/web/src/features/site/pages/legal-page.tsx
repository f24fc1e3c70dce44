import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { LoadError } from "@/components/load-error";
import { NotFoundPage } from "@/components/not-found";
import { useLang } from "@/lib/use-locale";
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
      <Blocks body={query.data.body} />
    </article>
  );
}
