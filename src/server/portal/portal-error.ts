/** A link the error page offers as the way on. */
export interface NextStep {
  label: string;
  href: string;
}

/**
 * An error a portal page answers with: thrown by a handler, rendered by the portal's
 * one error handler as a page that says what happened and what to do.
 */
export class PortalError extends Error {
  override name = "PortalError";
  constructor(
    readonly status: number,
    readonly title: string,
    message: string,
    /** What to do now, in one sentence. */
    readonly advice: string,
    readonly links: readonly NextStep[] = [{ label: "Go to Models", href: "/models" }],
  ) {
    super(message);
  }
}

export function noSuchModel(modelId: string): PortalError {
  return new PortalError(
    404,
    "No such model",
    `There is no model ${modelId} on this service. It may have been mistyped, or the link comes from another data dir.`,
    "Pick the model from the Models page.",
  );
}

export function noSuchApplication(modelId: string, clientId: string): PortalError {
  return new PortalError(
    404,
    "No such application",
    `Model ${modelId} has no application with client ID ${clientId}. It may have been deleted.`,
    "Open the model's settings to see its applications.",
    [{ label: "Open the model's settings", href: `/models/${modelId}` }],
  );
}

/** A form whose one-time nonce is unknown or expired (older than two hours, or from another server). */
export function staleForm(formHref: string): PortalError {
  return new PortalError(
    400,
    "This form has expired",
    "The form was opened too long ago, or on another run of the service, so it was not submitted. Nothing changed.",
    "Open the form again and submit it once.",
    [{ label: "Open the form again", href: formHref }],
  );
}
