import { useQuery } from "@tanstack/react-query";
import { Result, Skeleton, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { ButtonLink } from "@/components/button-link";
import { LoadError } from "@/components/load-error";
import { ApiError } from "@/lib/api-error";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { certificateCourse, verifyCertificateQuery } from "../api/certificate-queries";
import { CertificateDocument } from "../components/certificate-document";
import "../certificate.css";

/**
 * `/c/{code}` (public): anyone holding a code sees what the certificate says (name, course, date)
 * and whether it is valid or revoked; nothing else about the learner. An unknown code is a 404.
 */
export function CertificateVerifyPage() {
  const { t } = useTranslation("certificates");
  const lang = useLang();
  const to = useLocalePath();
  const { code = "" } = useParams();
  const check = useQuery(verifyCertificateQuery(code));
  usePageTitle(
    check.data ? t("verify.title", { course: certificateCourse(check.data, lang) }) : t("verify.heading"),
  );

  let body: React.ReactNode;
  if (
    check.isError &&
    check.error instanceof ApiError &&
    (check.error.status === 404 || check.error.status === 400)
  ) {
    body = (
      <Result
        status="404"
        title={t("verify.notFound")}
        subTitle={t("verify.notFoundText", { code })}
        extra={<ButtonLink to={to("/")}>{t("verify.home")}</ButtonLink>}
        data-testid="certificate-not-found"
      />
    );
  } else if (check.isError) {
    body = <LoadError query={check} />;
  } else if (check.isPending) {
    body = <Skeleton active />;
  } else {
    body = (
      <>
        <Typography.Paragraph type="secondary" style={{ textAlign: "center" }}>
          {check.data.status === "valid" ? t("verify.validText") : t("verify.revokedText")}
        </Typography.Paragraph>
        <CertificateDocument certificate={check.data} />
      </>
    );
  }
  return <div className="certificate-verify">{body}</div>;
}
