/* A Windows host for damas_cb.dll: it loads the library as CheckerBoard does (LoadLibrary, then
 * GetProcAddress of the undecorated names getmove, enginecommand and islegal) and plays a short
 * English game through getmove, both sides played by the library.
 *
 * It checks what only a Windows host can: that the DLL loads, that each export is there under
 * its plain name, and that the calls keep CheckerBoard's layout and calling convention. It
 * writes everything it saw on stdout, one record per line, for tests/windows/check_cb_host.py,
 * which replays the game with pydraughts and fails on any move that is not legal.
 *
 * The structures and prototypes are those of CheckerBoard's engine API (cb_interface.h,
 * version 2): board[x][y], x the column from the left, y the row from the top.
 *
 * Built by tools/windows.sh with x86_64-w64-mingw32-gcc; run under Wine or on Windows:
 *     cb_host.exe damas_cb.dll [PLIES] [SECONDS]
 * Exit status: 0 when every call answered, 1 when the library or an export is missing or a
 * call answered out of range.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#define CB_WHITE 1
#define CB_BLACK 2
#define CB_MAN 4
#define CB_KING 8
#define CB_RESET_MOVES 1
#define CB_EXACT_TIME 2

struct coor {
    int x;
    int y;
};

struct CBmove {
    int jumps;
    int newpiece;
    int oldpiece;
    struct coor from, to;
    struct coor path[12];
    struct coor del[12];
    int delpiece[12];
};

typedef int(WINAPI *getmove_fn)(int board[8][8], int color, double maxtime, char str[1024],
                                int *playnow, int info, int moreinfo, struct CBmove *move);
typedef int(WINAPI *enginecommand_fn)(char command[256], char reply[1024]);
typedef int(WINAPI *islegal_fn)(int board[8][8], int color, int from, int to,
                                struct CBmove *move);

static void print_board(const char *label, int board[8][8]) {
    printf("%s", label);
    for (int x = 0; x < 8; x++)
        for (int y = 0; y < 8; y++)
            printf(" %d", board[x][y]);
    printf("\n");
}

/* The reply on one line: a help text or an error may hold line breaks. */
static void print_reply(const char *command, int understood, char *reply) {
    for (char *c = reply; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    printf("command %s|%d|%s\n", command, understood, reply);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: cb_host.exe DLL [PLIES] [SECONDS]\n");
        return 2;
    }
    int plies = argc > 2 ? atoi(argv[2]) : 30;
    double seconds = argc > 3 ? atof(argv[3]) : 0.05;

    HMODULE library = LoadLibraryA(argv[1]);
    if (!library) {
        printf("load failed %lu\n", (unsigned long)GetLastError());
        return 1;
    }
    printf("load ok\n");
    const char *names[] = {"getmove", "enginecommand", "islegal"};
    FARPROC found[3];
    int missing = 0;
    for (int i = 0; i < 3; i++) {
        found[i] = GetProcAddress(library, names[i]);
        printf("export %s %s\n", names[i], found[i] ? "ok" : "missing");
        missing |= !found[i];
    }
    if (missing)
        return 1;
    getmove_fn getmove = (getmove_fn)(void (*)(void))found[0];
    enginecommand_fn enginecommand = (enginecommand_fn)(void (*)(void))found[1];
    islegal_fn islegal = (islegal_fn)(void (*)(void))found[2];

    /* What CheckerBoard asks when it loads an engine, and the menu's About and Help. */
    const char *commands[] = {"name", "about", "help", "get protocolversion", "get gametype",
                              "set hashsize 16", "no such command"};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        char command[256], reply[1024];
        snprintf(command, sizeof command, "%s", commands[i]);
        memset(reply, 0, sizeof reply);
        int understood = enginecommand(command, reply);
        print_reply(commands[i], understood, reply);
    }

    int board[8][8] = {{0}};
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++)
            if ((x + y) % 2 == 0)
                board[x][y] = y <= 2 ? CB_BLACK | CB_MAN : y >= 5 ? CB_WHITE | CB_MAN : 0;

    /* islegal on the start position, in CheckerBoard's English numbers (the PDN's): 9-13 is a
     * legal first move for Black, 1-5 is not (5 is Black's own man). */
    struct CBmove record;
    memset(&record, 0, sizeof record);
    printf("islegal 9-13 %d\n", islegal(board, CB_BLACK, 9, 13, &record));
    memset(&record, 0, sizeof record);
    printf("islegal 1-5 %d\n", islegal(board, CB_BLACK, 1, 5, &record));

    int color = CB_BLACK; /* Black moves first in English checkers. */
    int failed = 0;
    for (int ply = 0; ply < plies; ply++) {
        char status[1024];
        int playnow = 0;
        memset(status, 0, sizeof status);
        memset(&record, 0, sizeof record);
        printf("ply %d color %d\n", ply, color);
        print_board("before", board);
        int info = CB_EXACT_TIME | (ply == 0 ? CB_RESET_MOVES : 0);
        int result = getmove(board, color, seconds, status, &playnow, info, 0, &record);
        for (char *c = status; *c; c++)
            if (*c == '\n' || *c == '\r')
                *c = ' ';
        printf("getmove %d|%s\n", result, status);
        printf("record %d %d %d %d %d %d %d\n", record.jumps, record.oldpiece, record.newpiece,
               record.from.x, record.from.y, record.to.x, record.to.y);
        print_board("after", board);
        fflush(stdout);
        if (result < 0 || result > 3) {
            failed = 1;
            break;
        }
        if (result != 3) /* CB_WIN, CB_LOSS or CB_DRAW: the game is decided. */
            break;
        color = color == CB_BLACK ? CB_WHITE : CB_BLACK;
    }
    printf("end\n");
    FreeLibrary(library);
    return failed;
}
