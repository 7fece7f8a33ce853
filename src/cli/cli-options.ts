import { InvalidArgumentError } from "commander";

/** Where `serve` and `admin` keep their data unless told: $MDPS_DATA_DIR or ./.mdps-data. */
export function defaultDataDir(): string {
  return process.env.MDPS_DATA_DIR ?? ".mdps-data";
}

export function integerOption(name: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (text: string): number => {
    const value = Number(text);
    if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
      throw new InvalidArgumentError(`${name} must be an integer in ${min}..${max}, got '${text}'.`);
    }
    return value;
  };
}
