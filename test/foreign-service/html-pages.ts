/** Pages a gateway or a web framework would answer in HTML instead of the API's JSON. */

export function badGatewayPage(): string {
  return [
    "<html>",
    "<head><title>502 Bad Gateway</title></head>",
    "<body>",
    "<center><h1>502 Bad Gateway</h1></center>",
    "<hr><center>nginx</center>",
    "</body>",
    "</html>",
    "",
  ].join("\r\n");
}

export function errorPage(status: number, title: string, message: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>${status} ${escapeHtml(title)}</title></head>
<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
