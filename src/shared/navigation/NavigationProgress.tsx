import { useEffect, useState } from "react";
import { useNavigation, useRouter } from "./router-context";

// Quick navigations show nothing: a bar flashing for 50 ms reads as a flicker.
const SHOW_AFTER_MS = 200;

/**
 * A slim progress bar while a navigation takes longer than SHOW_AFTER_MS. The server, which
 * has no router, renders nothing and runs none of the bar's hooks (it renders every page).
 */
export function NavigationProgress() {
  return useRouter() ? <ProgressBar /> : null;
}

function ProgressBar() {
  const { state } = useNavigation();
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    if (state === "idle") {
      setVisible(false);
      return;
    }
    const timer = setTimeout(() => setVisible(true), SHOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [state]);
  return visible ? <div className="navigation-progress" role="progressbar" aria-label="Loading page" /> : null;
}
