import { z } from "zod";

/**
 * One of scikit-learn 1.2.1's warnings on the job's data and parameters (docs/contract.md,
 * Warnings; docs/warnings.md lists the codes). `column` is null for a warning about the
 * whole job (a parameter). The code is read as any string: a newer service may add codes.
 */
export const jobWarning = z.looseObject({
  code: z.string(),
  message: z.string(),
  column: z.string().nullable(),
});
export type JobWarning = z.infer<typeof jobWarning>;
