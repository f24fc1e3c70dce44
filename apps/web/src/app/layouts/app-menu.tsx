import RightOutlined from "@ant-design/icons-svg/es/asn/RightOutlined";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { PlainIcon } from "@/components/plain-icon";
import { useLocalePath } from "@/lib/use-locale";
import { type MenuItem, type MenuTree, parentKeys } from "./menu";

/**
 * The signed-in menu (spec §2: the user's modules, three levels at most), drawn without antd: a
 * list of links, a group opening and closing with its button (`aria-expanded`), the current page
 * marked `aria-current="page"`. Collapsed (desktop sider), only the icons show; the names stay for
 * screen readers and in a tooltip, and opening a group expands the sider.
 */
export function AppMenu({
  menu,
  selected,
  collapsed = false,
  onExpand,
  onNavigate,
  label,
}: {
  menu: MenuTree;
  selected: string | undefined;
  collapsed?: boolean;
  onExpand?: () => void;
  onNavigate?: () => void;
  label: string;
}) {
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set(selected ? parentKeys(selected) : []));
  // a page reached otherwise (a link, the address bar) opens the groups leading to it
  useEffect(() => {
    if (!selected) return;
    setOpen((keys) => {
      const parents = parentKeys(selected).filter((key) => !keys.has(key));
      return parents.length === 0 ? keys : new Set([...keys, ...parents]);
    });
  }, [selected]);
  const toggle = (key: string) => {
    if (collapsed) {
      onExpand?.();
      setOpen((keys) => new Set([...keys, key]));
      return;
    }
    setOpen((keys) => {
      const next = new Set(keys);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  };
  return (
    <nav aria-label={label} className={collapsed ? "app-menu app-menu--collapsed" : "app-menu"}>
      <Entries
        items={menu.items}
        depth={0}
        menu={menu}
        selected={selected}
        open={open}
        toggle={toggle}
        collapsed={collapsed}
        onNavigate={onNavigate}
        testId="app-menu"
      />
    </nav>
  );
}

interface EntriesProps {
  items: MenuItem[];
  depth: number;
  menu: MenuTree;
  selected: string | undefined;
  open: ReadonlySet<string>;
  toggle: (key: string) => void;
  collapsed: boolean;
  onNavigate?: () => void;
  id?: string;
  testId?: string;
}

function Entries({ items, depth, id, testId, ...props }: EntriesProps) {
  const { menu, selected, open, toggle, collapsed, onNavigate } = props;
  const to = useLocalePath();
  return (
    <ul className="app-menu__list" id={id} data-testid={testId}>
      {items.map((item) => {
        const indent = { paddingInlineStart: collapsed ? undefined : `${16 + depth * 24}px` };
        const body = (
          <>
            {item.icon ? <PlainIcon icon={item.icon} className="app-menu__icon" /> : null}
            <span className="app-menu__label">{item.label}</span>
          </>
        );
        if (item.children) {
          const expanded = open.has(item.key) && !collapsed;
          const inPath = selected?.startsWith(`${item.key}.`) ?? false;
          return (
            <li key={item.key}>
              <button
                type="button"
                className={inPath ? "app-menu__item app-menu__item--in-path" : "app-menu__item"}
                style={indent}
                aria-expanded={expanded}
                aria-controls={`${item.key}-list`}
                title={collapsed ? item.label : undefined}
                onClick={() => toggle(item.key)}
              >
                {body}
                <PlainIcon icon={RightOutlined} className="app-menu__arrow" />
              </button>
              {expanded && (
                <Entries {...props} items={item.children} depth={depth + 1} id={`${item.key}-list`} />
              )}
            </li>
          );
        }
        const module = menu.byKey.get(item.key);
        if (!module) return null;
        const current = item.key === selected;
        const className = current ? "app-menu__item app-menu__item--current" : "app-menu__item";
        const title = collapsed ? item.label : undefined;
        return (
          <li key={item.key}>
            {module.external ? (
              <a className={className} style={indent} href={module.path} title={title}>
                {body}
              </a>
            ) : (
              <Link
                className={className}
                style={indent}
                to={to(module.path)}
                aria-current={current ? "page" : undefined}
                title={title}
                onClick={onNavigate}
              >
                {body}
              </Link>
            )}
          </li>
        );
      })}
    </ul>
  );
}
