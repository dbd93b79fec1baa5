#include "CudaLexer.h"

#include "Appearance.h"

#include <QApplication>
#include <QColor>
#include <QFile>
#include <QFont>
#include <QRegularExpression>
#include <algorithm>

namespace {

// Built-in variables and types: the second keyword set (KeywordSet2's colour).
constexpr const char* kBuiltins =
    "threadIdx blockIdx blockDim gridDim warpSize dim3 uint3 int2 int3 int4 uint2 uint4 float2 float3 float4 "
    "double2 "
    "char2 char4 uchar2 uchar4 short2 short4 longlong2 __half __half2 __nv_bfloat16 size_t";
constexpr const char* kQualifiers = " __global__ __device__ __host__ __shared__ __constant__ __managed__ "
                                    "__restrict__ __forceinline__ __noinline__ "
                                    "__launch_bounds__ __align__ __grid_constant__";

} // namespace

CudaLexer::CudaLexer(QObject* parent) : QsciLexerCPP(parent) {
    primary_ = QByteArray(QsciLexerCPP::keywords(1)) + kQualifiers;
    builtins_ = kBuiltins;
    // Every function of the autocompletion list is a known function here: one list to keep up to date.
    QFile api(QStringLiteral(":/editor/cuda.api"));
    if (api.open(QIODevice::ReadOnly)) {
        static const QRegularExpression name(QStringLiteral("^([A-Za-z_][A-Za-z0-9_]*)\\("));
        for (const QByteArray& line : api.readAll().split('\n'))
            if (const auto match = name.match(QString::fromUtf8(line)); match.hasMatch())
                functions_ += match.captured(1).toUtf8() + ' ';
    }
    QFont mono(QStringLiteral("DejaVu Sans Mono"));
    mono.setStyleHint(QFont::Monospace);
    // The desktop's text size, and no smaller than 10 points: the code is what the student reads.
    mono.setPointSizeF(std::max(10.0, QApplication::font().pointSizeF()));
    setDefaultFont(mono);
    for (int style = 0; style <= 127; ++style)
        setFont(mono, style);
    applyAppearance(Appearance{});
    setFoldComments(true);
    setFoldCompact(false);
}

QColor CudaLexer::defaultColor(int style) const {
    switch (style) {
    case Keyword:
        return QColor(0x00, 0x00, 0xa0);
    case KeywordSet2:
        return QColor(0x8a, 0x2b, 0xe2);
    case GlobalClass:
        return QColor(0x00, 0x70, 0x70);
    default:
        return QsciLexerCPP::defaultColor(style);
    }
}

void CudaLexer::applyAppearance(const Appearance& appearance) {
    // The styles' designed colours fall back on the lexer's defaults: the light ones while they are read.
    setDefaultPaper(Qt::white);
    setDefaultColor(Qt::black);
    const QColor base = colorsOf(appearance).base;
    for (int style = 0; style <= 127; ++style) {
        if (description(style).isEmpty()) continue;
        const QColor paper =
            adaptBackground(defaultPaper(style), appearance); // white paper: the theme's base
        setPaper(paper, style);
        setColor(adaptForeground(defaultColor(style), paper, appearance), style);
    }
    setDefaultPaper(base);
    setDefaultColor(colorsOf(appearance).text);
}

const char* CudaLexer::keywords(int set) const {
    switch (set) {
    case 1:
        return primary_.constData();
    case 2:
        return builtins_.constData();
    case 4:
        return functions_.constData(); // GlobalClass: the intrinsics, atomics and math functions
    default:
        return QsciLexerCPP::keywords(set);
    }
}
