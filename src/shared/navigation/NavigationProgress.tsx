import { useEffect, useState } from "react";
import { useNavigation } from "./router-context";

// Quick navigations show nothing: a bar flashing for 50 ms reads as a flicker.
const SHOW_AFTER_MS = 200;

/** A slim progress bar while a navigation takes longer than SHOW_AFTER_MS. */
export function NavigationProgress() {
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
