import type { Presentation } from "../../session/presentation/registry.js";
import { RichValue } from "../../session/presentation/rich-value.js";
import { inspectRich, jupyterBundle } from "./rich-inspect.js";

const KERNEL_PROTOCOL: Pick<Presentation, "inspectRich" | "jupyterBundle"> = { inspectRich, jupyterBundle };

/**
 * A value of display/'s own (a chart, a table of ranges): it renders through the kernel
 * protocol here, whether or not the package's entry registered the session's presentation.
 */
export abstract class DisplayedValue extends RichValue {
  protected override richProtocol(): Pick<Presentation, "inspectRich" | "jupyterBundle"> {
    return KERNEL_PROTOCOL;
  }
}
