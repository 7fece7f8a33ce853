/**
 * Debian's nginx as the reverse proxy in front of `mdps serve` replicas, for tests: its
 * own prefix in a temp dir, a free port on 127.0.0.1, round robin over the upstreams,
 * in the foreground as a child of the test (stopped with it).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RequiredTool } from "../required-tool.js";
import { freePort } from "./postgres.js";

const NGINX = "/usr/sbin/nginx";

/** The proxy the replica suite needs: CI installs it (.ci/run); elsewhere the suite skips. */
export const nginxTool: RequiredTool = {
  name: "nginx",
  missing: existsSync(NGINX) ? null : `no ${NGINX}: apt-get install nginx`,
};

export interface Proxy {
  url: string;
  stop(): Promise<void>;
}

/** nginx on a free port of 127.0.0.1, spreading requests over `upstreams` (`host:port` each). */
export async function startNginx(upstreams: readonly string[]): Promise<Proxy> {
  const dir = await mkdtemp(join(tmpdir(), "mdps-nginx-"));
  // Its workers run as nobody when the test runs as root: they write request bodies here.
  await chmod(dir, 0o777);
  for (const sub of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) {
    await mkdir(join(dir, sub), { mode: 0o777 });
    await chmod(join(dir, sub), 0o777);
  }
  const port = await freePort();
  const conf = `
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log stderr warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  # Uploads as large as the service takes; job waits up to 60 s.
  client_max_body_size 0;
  upstream mdps {
${upstreams.map((u) => `    server ${u} max_fails=1 fail_timeout=2s;`).join("\n")}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://mdps;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header Connection "";
      proxy_read_timeout 90s;
      proxy_request_buffering off;
    }
  }
}
`;
  await writeFile(join(dir, "nginx.conf"), conf);
  const child = spawn(NGINX, ["-p", dir, "-c", join(dir, "nginx.conf")], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  await listening(port, child, () => stderr);
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGQUIT");
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves once the port answers HTTP; rejects if nginx exits first or takes over 10 s. */
async function listening(port: number, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${stderr()}`);
    const answered = await fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    );
    if (answered) return;
    if (Date.now() > deadline) throw new Error(`nginx did not listen on ${port} in 10 s: ${stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
