import dayjs from "dayjs";
import es from "dayjs/locale/es";
import fr from "dayjs/locale/fr";

/**
 * The month and day names of antd's date pickers come from dayjs (not from antd's locale): each
 * language but English needs its dayjs locale loaded into the dayjs that antd uses. A language
 * added to LOCALES is listed here too (dayjs-locales.test.ts checks it), as its antd locale is
 * in components/antd-root.tsx.
 */
for (const locale of [es, fr]) dayjs.locale(locale, undefined, true);
