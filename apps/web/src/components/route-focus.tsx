import { useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";

/**
 * After a navigation inside the app (not the first page), what a screen reader or keyboard user
 * expects from a new page: the focus moves to the page's content (`#main`, without scrolling it
 * away), so that Tab continues from there rather than from the link left behind, and the new
 * page's title is announced. Hash changes and query-only changes (filters, pages of a list) keep
 * the focus where it is.
 */
const SETTLE_MS = 400;
/** How long a focus left on nothing is watched for: a page whose chunk loads late (a slow network,
 * a busy phone) renders its `#main` seconds after the route changed. */
const WATCH_MS = 5_000;

export function RouteFocus() {
  const { pathname } = useLocation();
  const first = useRef(true);
  const [announced, setAnnounced] = useState("");

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each navigation on purpose
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    // the page renders its content in the frames after the route change; when the layout itself
    // changes (a page shared by the public site and the app's shell), the new `#main` may come a
    // few frames later and the focused old one go away: a focus left on nothing
    // goes to the new content (a focus the reader moved elsewhere stays), for as long as the
    // page's chunk may take to arrive
    let frame = 0;
    const until = performance.now() + WATCH_MS;
    let frames = 0;
    const settle = () => {
      const main = document.getElementById("main");
      const active = document.activeElement;
      const lost = !active || active === document.body;
      // a dialog or a field that took the focus on its own keeps it
      if (main && (lost || (frames === 2 && !main.contains(active)))) main.focus({ preventScroll: true });
      frames += 1;
      if (frame !== 0 && performance.now() < until) frame = requestAnimationFrame(settle);
    };
    // the reader acting (a key, a tap) ends the watch: a menu they open takes the focus, briefly
    // leaving it on nothing, and must keep it
    const stop = () => {
      cancelAnimationFrame(frame);
      frame = 0;
    };
    window.addEventListener("keydown", stop, { capture: true, once: true });
    window.addEventListener("pointerdown", stop, { capture: true, once: true });
    frame = requestAnimationFrame(() => {
      frames = 1;
      frame = requestAnimationFrame(() => {
        frames = 2;
        settle();
      });
    });
    // its title may come with its data ("Lesson", then the lesson's name): announced once it has
    // stayed the same for a moment
    let timer = window.setTimeout(announce, SETTLE_MS);
    // (watched until the next navigation: a page whose layout changes sets its title again)
    function announce() {
      setAnnounced(document.title);
    }
    const titles = new MutationObserver(() => {
      window.clearTimeout(timer);
      timer = window.setTimeout(announce, SETTLE_MS);
    });
    const title = document.querySelector("head > title");
    if (title) titles.observe(title, { childList: true, subtree: true, characterData: true });
    else titles.observe(document.head, { childList: true });
    return () => {
      stop();
      window.removeEventListener("keydown", stop, { capture: true });
      window.removeEventListener("pointerdown", stop, { capture: true });
      window.clearTimeout(timer);
      titles.disconnect();
    };
  }, [pathname]);

  return (
    <div className="visually-hidden" aria-live="polite" aria-atomic="true" data-testid="route-announcer">
      {announced}
    </div>
  );
}
