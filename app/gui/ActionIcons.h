// The run tool bar's icons, drawn for the palette in use: the style's own media icons are dark grey
// glyphs that all but vanish on the dark theme. Run is a green triangle and Stop a red square on any
// background, Compile a circular arrow in the text colour; the bounds check a box that is visibly
// ticked or empty, so that its off state shows. RunActions redraws them when the palette changes.
#pragma once

#include <QIcon>
#include <QPalette>

QIcon runIcon(const QPalette& palette);
QIcon stopIcon(const QPalette& palette);
QIcon compileIcon(const QPalette& palette);
// QIcon::Off an empty box, QIcon::On a ticked one.
QIcon checkIcon(const QPalette& palette);
