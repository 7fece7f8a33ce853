/** The flags every `mdps admin` command takes. */
export interface Common {
  dataDir: string;
  json?: boolean;
}
