/** The flags every `mdps admin` command takes. */
export interface Common {
  dataDir: string;
  /** A postgres:// URL: the replicas' database instead of the data dir's SQLite ($MDPS_STORE). */
  store?: string;
  json?: boolean;
}
