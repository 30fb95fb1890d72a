/* A stand-in for Windows' bcryptprimitives.dll, for Wine versions that lack it (Wine 8, as in
 * Debian 12). Rust's standard library (1.78 and later) takes its random seeds from
 * ProcessPrng, which Windows 10 and later export from bcryptprimitives.dll; a program or DLL
 * built with it does not load where that DLL is missing. This stand-in gives ProcessPrng from
 * RtlGenRandom (advapi32's SystemFunction036), which every Windows and Wine has.
 *
 * Only the Wine tests use it (tools/windows.sh puts it beside the files under test when Wine has
 * no bcryptprimitives.dll of its own); users on Windows 10 or later never need it.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG part = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, part))
            return FALSE;
        data += part;
        length -= part;
    }
    return TRUE;
}
