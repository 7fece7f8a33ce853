/** Who this service process is, as named in leases, logs and its temp folder. */
export interface ProcessIdentity {
  /** Unique per process start; safe as a folder name. */
  ownerId: string;
  hostname: string;
  processId: number;
}
