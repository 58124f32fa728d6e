/* commands.h - the tephra subcommands, one per cli/cmd_<name>.c; main.c lists them. */
#ifndef TEPHRA_CLI_COMMANDS_H
#define TEPHRA_CLI_COMMANDS_H

int cmd_script(int argc, char **argv);
int cmd_fold(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_grind(int argc, char **argv);
int cmd_emu(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_symbolize(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_heatmap(int argc, char **argv);

#endif
