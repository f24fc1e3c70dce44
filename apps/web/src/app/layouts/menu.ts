import ApiOutlined from "@ant-design/icons-svg/es/asn/ApiOutlined";
import AppstoreOutlined from "@ant-design/icons-svg/es/asn/AppstoreOutlined";
import AuditOutlined from "@ant-design/icons-svg/es/asn/AuditOutlined";
import BellOutlined from "@ant-design/icons-svg/es/asn/BellOutlined";
import BookOutlined from "@ant-design/icons-svg/es/asn/BookOutlined";
import CalendarOutlined from "@ant-design/icons-svg/es/asn/CalendarOutlined";
import ControlOutlined from "@ant-design/icons-svg/es/asn/ControlOutlined";
import CreditCardOutlined from "@ant-design/icons-svg/es/asn/CreditCardOutlined";
import CrownOutlined from "@ant-design/icons-svg/es/asn/CrownOutlined";
import CustomerServiceOutlined from "@ant-design/icons-svg/es/asn/CustomerServiceOutlined";
import DashboardOutlined from "@ant-design/icons-svg/es/asn/DashboardOutlined";
import DollarOutlined from "@ant-design/icons-svg/es/asn/DollarOutlined";
import FileTextOutlined from "@ant-design/icons-svg/es/asn/FileTextOutlined";
import HomeOutlined from "@ant-design/icons-svg/es/asn/HomeOutlined";
import IdcardOutlined from "@ant-design/icons-svg/es/asn/IdcardOutlined";
import LinkOutlined from "@ant-design/icons-svg/es/asn/LinkOutlined";
import LockOutlined from "@ant-design/icons-svg/es/asn/LockOutlined";
import MailOutlined from "@ant-design/icons-svg/es/asn/MailOutlined";
import PlusOutlined from "@ant-design/icons-svg/es/asn/PlusOutlined";
import ProfileOutlined from "@ant-design/icons-svg/es/asn/ProfileOutlined";
import ReadOutlined from "@ant-design/icons-svg/es/asn/ReadOutlined";
import RetweetOutlined from "@ant-design/icons-svg/es/asn/RetweetOutlined";
import SafetyOutlined from "@ant-design/icons-svg/es/asn/SafetyOutlined";
import SendOutlined from "@ant-design/icons-svg/es/asn/SendOutlined";
import SettingOutlined from "@ant-design/icons-svg/es/asn/SettingOutlined";
import SoundOutlined from "@ant-design/icons-svg/es/asn/SoundOutlined";
import TagOutlined from "@ant-design/icons-svg/es/asn/TagOutlined";
import TeamOutlined from "@ant-design/icons-svg/es/asn/TeamOutlined";
import UnorderedListOutlined from "@ant-design/icons-svg/es/asn/UnorderedListOutlined";
import UploadOutlined from "@ant-design/icons-svg/es/asn/UploadOutlined";
import UserAddOutlined from "@ant-design/icons-svg/es/asn/UserAddOutlined";
import UserOutlined from "@ant-design/icons-svg/es/asn/UserOutlined";
import WalletOutlined from "@ant-design/icons-svg/es/asn/WalletOutlined";
import type { IconDefinition } from "@ant-design/icons-svg/lib/types";
import { type MenuModule, pickText } from "@parlons/contract";
import type { Lang } from "@/lib/locale-path";

/** One entry of the signed-in menu: a page (or an outside link), or a group of entries. */
export interface MenuItem {
  key: string;
  label: string;
  icon?: IconDefinition;
  children?: MenuItem[];
}

const ICONS: Record<string, IconDefinition> = {
  api: ApiOutlined,
  control: ControlOutlined,
  plus: PlusOutlined,
  tag: TagOutlined,
  tags: TagOutlined,
  useradd: UserAddOutlined,
  wallet: WalletOutlined,
  appstore: AppstoreOutlined,
  audit: AuditOutlined,
  bell: BellOutlined,
  notification: BellOutlined,
  book: BookOutlined,
  courses: BookOutlined,
  calendar: CalendarOutlined,
  review: RetweetOutlined,
  event: CalendarOutlined,
  events: CalendarOutlined,
  creditcard: CreditCardOutlined,
  card: CreditCardOutlined,
  billing: CreditCardOutlined,
  crown: CrownOutlined,
  plan: CrownOutlined,
  plans: CrownOutlined,
  customerservice: CustomerServiceOutlined,
  audio: CustomerServiceOutlined,
  dashboard: DashboardOutlined,
  dollar: DollarOutlined,
  filetext: FileTextOutlined,
  template: FileTextOutlined,
  home: HomeOutlined,
  idcard: IdcardOutlined,
  link: LinkOutlined,
  lock: LockOutlined,
  mail: MailOutlined,
  profile: ProfileOutlined,
  read: ReadOutlined,
  lesson: ReadOutlined,
  lessons: ReadOutlined,
  safety: SafetyOutlined,
  roles: SafetyOutlined,
  send: SendOutlined,
  setting: SettingOutlined,
  settings: SettingOutlined,
  sound: SoundOutlined,
  team: TeamOutlined,
  users: TeamOutlined,
  unorderedlist: UnorderedListOutlined,
  list: UnorderedListOutlined,
  upload: UploadOutlined,
  user: UserOutlined,
};

/** `DashboardOutlined`, `dashboard`, `credit-card`… → the icon's drawing, if we know it. */
export function iconFor(name: string | null | undefined): IconDefinition | undefined {
  if (!name) return undefined;
  const key = name
    .toLowerCase()
    .replace(/(outlined|filled|twotone)$/, "")
    .replace(/[^a-z]/g, "");
  return ICONS[key];
}

const MAX_MENU_DEPTH = 3;

export interface MenuTree {
  items: MenuItem[];
  /** Menu key → module, to act on clicks. */
  byKey: Map<string, MenuModule>;
}

/**
 * The user's module tree (up to three levels, spec §2) as menu items; titles in the
 * UI language by the fallback rule (title_fr, title, title_es). Keys are positional so
 * duplicate paths stay distinct.
 */
export function buildMenu(modules: MenuModule[], lang: Lang): MenuTree {
  const byKey = new Map<string, MenuModule>();
  const walk = (list: MenuModule[], prefix: string, depth: number): MenuItem[] =>
    list.map((module, index) => {
      const key = `${prefix}${index}`;
      byKey.set(key, module);
      const icon = iconFor(module.icon);
      const label = pickText({ fr: module.title_fr, en: module.title, es: module.title_es }, lang);
      const children =
        depth < MAX_MENU_DEPTH && module.subModules.length > 0
          ? walk(module.subModules, `${key}.`, depth + 1)
          : undefined;
      return { key, label, ...(icon ? { icon } : {}), ...(children ? { children } : {}) };
    });
  return { items: walk(modules, "m", 1), byKey };
}

/** The key of the deepest module whose path is the current page or one of its parents. */
export function selectedMenuKey(tree: MenuTree, pathname: string): string | undefined {
  let best: { key: string; length: number } | undefined;
  for (const [key, module] of tree.byKey) {
    if (module.external || !module.path.startsWith("/")) continue;
    const path = module.path.replace(/\/+$/, "") || "/";
    const matches = pathname === path || (path !== "/" && pathname.startsWith(`${path}/`));
    if (matches && (!best || path.length > best.length)) best = { key, length: path.length };
  }
  return best?.key;
}

/** The keys of the ancestors of a positional key (`m0.1.2` → `m0`, `m0.1`). */
export function parentKeys(key: string): string[] {
  const parts = key.split(".");
  return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join("."));
}
