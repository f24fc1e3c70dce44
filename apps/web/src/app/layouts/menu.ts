import {
  ApiOutlined,
  AppstoreOutlined,
  AuditOutlined,
  BellOutlined,
  BookOutlined,
  CalendarOutlined,
  ControlOutlined,
  CreditCardOutlined,
  CrownOutlined,
  CustomerServiceOutlined,
  DashboardOutlined,
  DollarOutlined,
  FileTextOutlined,
  HomeOutlined,
  IdcardOutlined,
  LinkOutlined,
  LockOutlined,
  MailOutlined,
  PlusOutlined,
  ProfileOutlined,
  ReadOutlined,
  RetweetOutlined,
  SafetyOutlined,
  SendOutlined,
  SettingOutlined,
  SoundOutlined,
  TagOutlined,
  TeamOutlined,
  UnorderedListOutlined,
  UploadOutlined,
  UserAddOutlined,
  UserOutlined,
  WalletOutlined,
} from "@ant-design/icons";
import { type MenuModule, pickText } from "@parlons/contract";
import type { MenuProps } from "antd";
import { type ComponentType, createElement } from "react";
import type { Lang } from "@/lib/locale-path";

type MenuItem = Required<MenuProps>["items"][number];

const ICONS: Record<string, ComponentType> = {
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

/** `DashboardOutlined`, `dashboard`, `credit-card`… → the icon component, if we know it. */
export function iconFor(name: string | null | undefined): ComponentType | undefined {
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
 * The user's module tree (up to three levels, spec §2) as antd Menu items; titles in the
 * UI language by the fallback rule (title_fr, title, title_es). Keys are positional so
 * duplicate paths stay distinct.
 */
export function buildMenu(modules: MenuModule[], lang: Lang): MenuTree {
  const byKey = new Map<string, MenuModule>();
  const walk = (list: MenuModule[], prefix: string, depth: number): MenuItem[] =>
    list.map((module, index) => {
      const key = `${prefix}${index}`;
      byKey.set(key, module);
      const Icon = iconFor(module.icon);
      const label = pickText({ fr: module.title_fr, en: module.title, es: module.title_es }, lang);
      const children =
        depth < MAX_MENU_DEPTH && module.subModules.length > 0
          ? walk(module.subModules, `${key}.`, depth + 1)
          : undefined;
      return {
        key,
        label,
        icon: Icon ? createElement(Icon) : undefined,
        ...(children ? { children } : {}),
      } as MenuItem;
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
