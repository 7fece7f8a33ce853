import type { Command } from "commander";
import { visible } from "../core/text/visible-text.js";
import { AdminError } from "../server/domain/admin-error.js";
import type { StoreAdmin } from "../server/index.js";
import { defaultDataDir } from "./cli-options.js";
import type { Common } from "./admin-flags.js";
import { registerHousekeeping } from "./housekeeping-commands.js";
import { warnOfArgvPassword } from "./store-password.js";
import { registerTransfer } from "./transfer-commands.js";
import { registerVerify } from "./verify-command.js";

/** Runs one admin operation on a data dir or the replicas' database and prints its result (JSON with --json). */
export async function withAdmin<T>(
  flags: Common,
  run: (admin: StoreAdmin) => Promise<T>,
  human: (result: T) => string,
): Promise<void> {
  warnOfArgvPassword("--store", flags.store, "MDPS_STORE");
  const { openStoreAdmin } = await import("../server/index.js");
  const admin = await openStoreAdmin({ dataDir: flags.dataDir, store: flags.store });
  try {
    const result = await run(admin);
    // Names come from whoever could create them: control characters shown, never sent to the terminal.
    console.log(flags.json ? JSON.stringify(result, null, 2) : visible(human(result), { keepNewlines: true }));
  } finally {
    await admin.close();
  }
}

const SECRET_NOTE = "The secret is shown only now: store it server-side, out of source control.";

/** `mdps admin ...`: the portal's operations; safe while `mdps serve` runs on the same data dir. */
export function registerAdmin(program: Command): void {
  const admin = program
    .command("admin")
    .description("manage models and applications in a data dir (works while the server runs)");
  const common = (cmd: Command) =>
    cmd
      .option("--data-dir <dir>", "the service's data dir ($MDPS_DATA_DIR)", defaultDataDir())
      .option(
        "--store <url>",
        "the replicas' PostgreSQL database, postgres://... ($MDPS_STORE); default the data dir's SQLite",
      )
      .option("--json", "print JSON");

  common(admin.command("create-model").description("create a model; prints its model_id"))
    .requiredOption("--name <name>", "model name")
    .action((flags: Common & { name: string }) =>
      withAdmin(
        flags,
        (a) => a.createModel(flags.name),
        (r) => `model_id: ${r.model_id}`,
      ),
    );

  common(
    admin.command("add-app").description("register an application for a model; prints client_id and client_secret"),
  )
    .requiredOption("--model <id>", "model id")
    .requiredOption("--name <name>", "application name")
    .requiredOption("--scopes <scopes>", 'space-separated scopes, e.g. "shared.blob.upload ml.preprocessing.execute"')
    .action((flags: Common & { model: string; name: string; scopes: string }) =>
      withAdmin(
        flags,
        (a) => a.addApp({ modelId: flags.model, name: flags.name, scopes: flags.scopes.split(/[\s,]+/) }),
        (r) => `client_id:     ${r.client_id}\nclient_secret: ${r.client_secret}\n${SECRET_NOTE}`,
      ),
    );

  common(
    admin
      .command("regenerate-secret")
      .description("replace an application's secret; the old one stops working at once"),
  )
    .requiredOption("--client-id <id>", "the application's client id")
    .action((flags: Common & { clientId: string }) =>
      withAdmin(
        flags,
        (a) => a.regenerateSecret(flags.clientId),
        (r) =>
          `client_id:     ${r.client_id}\nclient_secret: ${r.client_secret}\n${SECRET_NOTE} Tokens issued before stay valid until they expire.`,
      ),
    );

  common(admin.command("delete-app").description("delete an application and revoke its tokens"))
    .requiredOption("--client-id <id>", "the application's client id")
    .action((flags: Common & { clientId: string }) =>
      withAdmin(
        flags,
        async (a) => {
          await a.deleteApp(flags.clientId);
          return { client_id: flags.clientId, deleted: true };
        },
        (r) => `deleted application ${r.client_id}; its tokens are revoked`,
      ),
    );

  common(
    admin
      .command("portal-link")
      .description("print a fresh one-time login link for the application portal of the server on this data dir"),
  )
    .option("--url <url>", "the server's address (default: the one the last server on this data dir recorded)")
    .action((flags: Common & { url?: string }) =>
      withAdmin(
        flags,
        async (a) => {
          const { link } = await a.portalLink(flags.url);
          if (link === null) {
            throw new AdminError(
              `no server has served the portal of ${flags.dataDir} yet; start one with 'mdps serve --data-dir ${flags.dataDir}' (it prints a link), or pass --url`,
            );
          }
          return { portal: link };
        },
        (r) => `portal: ${r.portal}`,
      ),
    );

  common(
    admin
      .command("migrate")
      .description(
        "create or update the store's tables: each numbered step runs once, under a lock (replicas may start together)",
      ),
  ).action((flags: Common) =>
    withAdmin(
      flags,
      (a) => Promise.resolve({ store: a.store, migrated: true }),
      (r) => `${r.store}: tables up to date`,
    ),
  );

  registerHousekeeping(admin, common, withAdmin);
  registerVerify(admin, common);
  registerTransfer(admin, common);

  common(admin.command("list-models").description("list models and their applications (never secrets)")).action(
    (flags: Common) =>
      withAdmin(
        flags,
        (a) => a.listModels(),
        (models) =>
          models.length === 0
            ? "no models yet; create one with 'mdps admin create-model --name NAME'"
            : models
                .map((m) =>
                  [
                    `${m.model_id}  ${m.name}  (created ${m.created_at})`,
                    ...(m.applications.length === 0
                      ? ["  no applications"]
                      : m.applications.map(
                          (app) => `  ${app.client_id}  ${app.name}  scopes: ${app.scopes.join(" ")}`,
                        )),
                  ].join("\n"),
                )
                .join("\n"),
      ),
  );
}
