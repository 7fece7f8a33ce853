/**
 * Renders one command output. Layout comes from the same pure functions as piped
 * mode (format/), so both show the same thing; this only adds colour.
 */
import { Box, Text } from "ink";
import type { Output, Tone } from "../commands/types.js";
import { histogramLines } from "../format/histogram.js";
import { helpLines, tableBlocks } from "../format/plain-output.js";

const TONE_COLOR: Record<Tone, string | undefined> = {
  info: undefined,
  success: "green",
  warning: "yellow",
  muted: "gray",
};

export function OutputView({ output, width }: { output: Output; width: number }) {
  switch (output.type) {
    case "message":
      return <Text color={TONE_COLOR[output.tone]}>{output.text}</Text>;
    case "value":
      return <Text>{output.text}</Text>;
    case "table":
      return (
        <Box flexDirection="column">
          {output.title ? (
            <Text bold color="cyan">
              {output.title}
            </Text>
          ) : null}
          {tableBlocks(output, width).map((block, i) => (
            <Box key={i} flexDirection="column" marginTop={i === 0 ? 0 : 1}>
              <Text bold>{block.header}</Text>
              <Text dimColor>{block.rule}</Text>
              <Text>{block.lines.join("\n")}</Text>
            </Box>
          ))}
          {output.footer ? <Text dimColor>{output.footer}</Text> : null}
        </Box>
      );
    case "histogram":
      return (
        <Box flexDirection="column">
          <Text bold color="cyan">
            {output.title}
          </Text>
          <Text color="magenta">{histogramLines(output.panels, width).join("\n")}</Text>
        </Box>
      );
    case "help": {
      const lines = helpLines(output.entries, output.keys);
      return (
        <Box flexDirection="column" borderStyle="round" borderColor="gray" paddingX={1}>
          {lines.map((line, i) => (
            <Text key={i} bold={line === "Keys"} color={line.startsWith("/") ? "cyan" : undefined}>
              {line === "" ? " " : line}
            </Text>
          ))}
        </Box>
      );
    }
    case "logs":
      return (
        <Box flexDirection="column">
          {output.lines.map((l, i) => (
            <Text key={i}>
              <Text dimColor>{l.timestamp} </Text>
              <Text color={l.level === "error" ? "red" : l.level === "warning" ? "yellow" : "blue"}>
                {l.level.padEnd(7)}{" "}
              </Text>
              {l.message}
            </Text>
          ))}
        </Box>
      );
    case "error":
      return (
        <Box flexDirection="column">
          <Text color="red" bold>
            ✘ {output.title}
          </Text>
          {output.detail ? (
            <Text color="red">
              {"  "}
              {output.detail}
            </Text>
          ) : null}
          {(output.fields ?? []).map((f, i) => (
            <Text key={i} color="red">
              {"  - "}
              {f}
            </Text>
          ))}
          {output.hint ? (
            <Text color="yellow">
              {"  hint: "}
              {output.hint}
            </Text>
          ) : null}
        </Box>
      );
    case "group":
      return (
        <Box flexDirection="column" gap={1}>
          {output.items.map((item, i) => (
            <OutputView key={i} output={item} width={width} />
          ))}
        </Box>
      );
    case "clear":
    case "quit":
    case "none":
      return null;
  }
}
