import { useEffect, useState } from "react";
import { useNavigation, useRouter } from "./router-context";

// Quick navigations show nothing: a bar flashing for 50 ms reads as a flicker.
const SHOW_AFTER_MS = 200;

// Out of sight, not out of the accessibility tree: the usual visually-hidden rules.
const VISUALLY_HIDDEN = {
  position: "absolute",
  width: "1px",
  height: "1px",
  overflow: "hidden",
  clipPath: "inset(50%)",
  whiteSpace: "nowrap",
} as const;

/**
 * A slim progress bar while a navigation takes longer than SHOW_AFTER_MS, announced to screen
 * readers through a polite live region. The server, which has no router, renders nothing and
 * runs none of the bar's hooks (it renders every page).
 */
export function NavigationProgress() {
  return useRouter() ? <ProgressBar /> : null;
}

function ProgressBar() {
  const { state } = useNavigation();
  const [visible, setVisible] = useState(false);
  // A live region is announced when its text changes, so it is there (empty) before any navigation.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  useEffect(() => {
    if (state === "idle") {
      setVisible(false);
      return;
    }
    const timer = setTimeout(() => setVisible(true), SHOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <>
      {visible ? <div className="navigation-progress" role="progressbar" aria-label="Loading page" /> : null}
      {mounted ? (
        <div role="status" data-navigation-status="" style={VISUALLY_HIDDEN}>
          {visible ? "Loading page" : ""}
        </div>
      ) : null}
    </>
  );
}
