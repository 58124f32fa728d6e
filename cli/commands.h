/* commands.h - the tephra subcommands.  Each lives in its own cli/cmd_<name>.c and is
 * declared weak here, so a command whose file is not built simply does not exist. */
#ifndef TEPHRA_CLI_COMMANDS_H
#define TEPHRA_CLI_COMMANDS_H

#define TEPHRA_COMMAND(fn) int fn(int argc, char **argv) __attribute__((weak))

TEPHRA_COMMAND(cmd_script);
TEPHRA_COMMAND(cmd_fold);
TEPHRA_COMMAND(cmd_stat);
TEPHRA_COMMAND(cmd_record);
TEPHRA_COMMAND(cmd_flamegraph);
TEPHRA_COMMAND(cmd_diff);
TEPHRA_COMMAND(cmd_grind);
TEPHRA_COMMAND(cmd_emu);
TEPHRA_COMMAND(cmd_trace);
TEPHRA_COMMAND(cmd_symbolize);

#endif
