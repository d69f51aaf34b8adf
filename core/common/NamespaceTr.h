#pragma once

#include <QCoreApplication>
#include <QString>

// tr() for a namespace's free functions. lupdate files a tr() call outside a class under the
// enclosing namespace's name, so that name is the context. Each namespace states it once, in a
// header of its folder (LocalTr.h and the like), so that the files of one library, compiled
// together in a unity batch, share one helper instead of each defining its own.
#define SANDBAR_NAMESPACE_TR(ns)                                                                                       \
    namespace ns {                                                                                                     \
    inline QString tr(const char *text, const char *disambiguation = nullptr, int n = -1)                              \
    {                                                                                                                  \
        return QCoreApplication::translate(#ns, text, disambiguation, n);                                              \
    }                                                                                                                  \
    }
