import { useStdout } from "ink";
import { useEffect, useState } from "react";

/** The terminal's width in columns, following resizes. */
export function useTerminalWidth(fallback = 100): number {
  const { stdout } = useStdout();
  const [width, setWidth] = useState(() => stdout.columns || fallback);
  useEffect(() => {
    const onResize = (): void => setWidth(stdout.columns || fallback);
    stdout.on("resize", onResize);
    return () => {
      stdout.off("resize", onResize);
    };
  }, [stdout, fallback]);
  return width;
}
