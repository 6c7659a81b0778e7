"""C++ symbol names as people read them: libstdc++'s own demangler, else ``c++filt``.

An undefined-symbol error shows a mangled name (``_ZN3c104cuda9SetDeviceEi``). The
full Itanium grammar is large, so this asks the implementations that have it:

1. ``__cxa_demangle`` from ``libstdc++.so.6``, in this process through ctypes (the
   library is present wherever g++ is; the buffer it returns is freed with libc's
   ``free``);
2. else the ``c++filt`` binary (binutils), through :func:`cudaenv.infra.run.run`;
3. else nothing: the caller keeps the mangled name.

The answer is c++filt's: libstdc++ writes ``std::string`` (and ``std::istream``,
``std::ostream``, ``std::iostream``) for the ABI's abbreviations where c++filt spells
out the template (``std::basic_string<char, std::char_traits<char>,
std::allocator<char> >``), so those four are spelled out here too.
"""

from __future__ import annotations

from . import lazyre as re  # re, its module-level patterns compiled when first used

__all__ = ["demangle", "demangle_cxa", "demangle_cxxfilt"]

# libiberty's standard substitutions (cp-demangle.c standard_subs): the short spelling
# __cxa_demangle prints, and the full one c++filt prints (DMGL_VERBOSE).
_VERBOSE = {
    "string": "std::basic_string<char, std::char_traits<char>, std::allocator<char> >",
    "istream": "std::basic_istream<char, std::char_traits<char> >",
    "ostream": "std::basic_ostream<char, std::char_traits<char> >",
    "iostream": "std::basic_iostream<char, std::char_traits<char> >",
}
# Only at the start of a name: ``a::std::string`` is a user's own name, printed as is by both.
# A template argument list ending in one gets c++filt's space before its ``>`` (``<... > >``).
_SHORT = re.compile(r"(?<![\w:])std::(string|istream|ostream|iostream)\b(?=(>?))")

#: Not tried yet / the loaded (__cxa_demangle, free) pair / False: cannot be loaded here.
_CXA: list = [None]
#: The longest symbol handed to a demangler: mangled names in real logs stay far below it.
MAX_SYMBOL = 4096


def _load_cxa():
    if _CXA[0] is None:
        try:
            import ctypes

            lib = ctypes.CDLL("libstdc++.so.6")
            fn = lib.__cxa_demangle
            fn.restype = ctypes.c_void_p
            fn.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
            free = ctypes.CDLL(None).free
            free.restype = None
            free.argtypes = [ctypes.c_void_p]
            _CXA[0] = (ctypes, fn, free)
        except (OSError, AttributeError, ImportError):
            _CXA[0] = False
    return _CXA[0]


def _spell_out(m: re.Match) -> str:
    return _VERBOSE[m.group(1)] + (" " if m.group(2) else "")


def demangle_cxa(symbol: str) -> str | None:
    """``symbol`` through libstdc++'s ``__cxa_demangle`` as it prints it, or None (not a name; no libstdc++)."""
    loaded = _load_cxa()
    if not loaded:
        return None
    ctypes, fn, free = loaded
    status = ctypes.c_int(-1)
    try:
        raw = symbol.encode("ascii")
    except UnicodeEncodeError:
        return None
    ptr = fn(raw, None, None, ctypes.byref(status))
    if not ptr:
        return None
    try:
        out = ctypes.string_at(ptr)
    finally:
        free(ptr)
    return out.decode("utf-8", "replace") if status.value == 0 else None


def demangle_cxxfilt(symbol: str) -> str | None:
    """``symbol`` through the ``c++filt`` binary, or None (not a name c++filt reads; no c++filt)."""
    from ...infra.run import run

    res = run(["c++filt", "--", symbol], timeout=10)
    out = res.stdout.strip()
    if res.returncode != 0 or not out or out == symbol or "\n" in out:
        return None
    return out


def demangle(symbol: str) -> str | None:
    """``symbol`` demangled as ``c++filt`` prints it, or None when it is not a mangled C++ name (or nothing here reads it)."""
    if not symbol.startswith("_Z") or len(symbol) > MAX_SYMBOL or not symbol.isascii() or not symbol.isprintable() \
            or any(c.isspace() for c in symbol):
        return None
    if _load_cxa():
        out = demangle_cxa(symbol)
        return None if out is None else _SHORT.sub(_spell_out, out)
    return demangle_cxxfilt(symbol)
