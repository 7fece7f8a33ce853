/**
 * /apply and /invert: a job's fitted transform used here, on a frame the job never saw.
 * /apply scales a test set exactly as the training set was (the fit stays the
 * training one); /invert maps transformed values back to the original units
 * (scikit-learn's inverse_transform). Both run locally with the service's engine.
 */
import type { PreprocessingType } from "../../src/index.js";
import { EngineError } from "../../src/index.js";
import { ReplError } from "../errors.js";
import { previewTable, shapeText } from "../format/frame-preview.js";
import { checkFrameName, uniqueName } from "../workspace/frame-names.js";
import { tableFromDataFrame } from "../../src/internal/index.js";
import { RESULT_SUFFIX } from "./fetch.js";
import { message, type Command } from "./types.js";

type Direction = "apply" | "invert";

interface Wording {
  readonly description: string;
  readonly suffix: (type: PreprocessingType | undefined) => string;
  readonly done: (fit: string, frame: string) => string;
}

const WORDING: Record<Direction, Wording> = {
  apply: {
    description:
      "Transform a frame with a job's fitted transform, here (a test set scaled exactly like the training set).",
    suffix: (type) => (type ? RESULT_SUFFIX[type] : "applied"),
    done: (fit, frame) => `Applied ${fit} to ${frame} here`,
  },
  invert: {
    description:
      "Map a transformed frame back to the original units with a job's fitted transform (inverse_transform), here.",
    suffix: () => "inv",
    done: (fit, frame) => `Mapped ${frame} back to the original units with ${fit} here`,
  },
};

function transformerCommand(direction: Direction): Command {
  const wording = WORDING[direction];
  return {
    name: direction,
    aliases: [],
    description: wording.description,
    usage: `/${direction} <job> <frame> [as <name>]`,
    details: [
      "The job's fit is used as it is, never refitted: the frame needs the columns the job transformed; other columns pass through.",
      direction === "apply"
        ? "The name defaults to the frame's name and the transform: test_std, test_minmax, ..."
        : "The name defaults to the frame's name and _inv. Binarizer and Normalizer have no inverse.",
    ],
    complete: (ctx, args) =>
      args.length === 0 ? ctx.jobRefs() : args.length === 1 ? ctx.frameNames() : args.length === 2 ? ["as"] : [],
    async action(ctx, args) {
      const [jobText, frame, as, given, ...extra] = args.positional;
      if (
        jobText === undefined ||
        frame === undefined ||
        (as !== undefined && (as !== "as" || given === undefined)) ||
        extra.length > 0
      ) {
        throw new ReplError("Which job, and which frame?", `Usage: ${this.usage}`);
      }
      const ws = ctx.workspace;
      const { job, handle } = ws.findJob(jobText);
      const df = ws.frame(frame);
      const type = ws.jobSource(job.ref)?.type as PreprocessingType | undefined;
      const name = checkFrameName(given ?? uniqueName(`${frame}_${wording.suffix(type)}`, (n) => ws.hasFrame(n)));
      if (job.finishedAt === undefined) ctx.emit(message(`Waiting for ${job.ref} (${job.label})…`, "muted"));
      const transformer = await handle.transformer({ signal: ctx.signal }).catch((error: unknown) => {
        throw ws.waitStopped(error, job.ref, ctx);
      });
      const missing = transformer.featureNames.filter((f) => !df.columns.includes(f));
      if (missing.length > 0) {
        throw new ReplError(
          `${frame} has no column${missing.length > 1 ? "s" : ""} ${missing.join(", ")}: ${job.ref}'s ${transformer.type} was fitted on ${transformer.featureNames.join(", ")}.`,
          "Pick a frame with those columns (/frames lists them), or run /preprocess on this one.",
        );
      }
      let out: typeof df;
      try {
        out = direction === "apply" ? transformer.transform(df) : transformer.inverseTransform(df);
      } catch (error) {
        // what the engine refuses (no inverse, infinity in the data) is a one-line answer here
        if (error instanceof EngineError)
          throw new ReplError(error.message, `Nothing was changed; /help ${direction} explains the command.`);
        throw error;
      }
      const features = [...transformer.featureNames];
      ws.setFrame(name, out, {
        origin: `${job.ref} ${transformer.type}, ${direction === "apply" ? "applied" : "inverted"} locally`,
        parent: frame,
        job: job.ref,
        features,
      });
      const table = tableFromDataFrame(out);
      return {
        type: "group",
        items: [
          message(
            `${wording.done(`${job.ref}'s ${transformer.type}`, frame)}: frame ${name}, ${shapeText(table)}.`,
            "success",
          ),
          previewTable(table, 5),
        ],
      };
    },
  };
}

export const applyCommand = transformerCommand("apply");
export const invertCommand = transformerCommand("invert");
