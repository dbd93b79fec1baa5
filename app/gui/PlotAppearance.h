// Plots in the application's appearance. Plot code draws for the light theme at the base font size;
// followAppearance() makes a QCustomPlot show that drawing in the current theme and presentation's
// sizes before each replot. What the code set is remembered on each part (axis, legend, text, graph),
// so applying again, or after the code changed a pen or a font, never scales or turns colours twice.
#pragma once

class QCustomPlot;
struct Appearance;

// Call once, right after creating the plot: its parts made later start from the base font, and every
// replot shows the current appearance (Appearance.h).
void followAppearance(QCustomPlot* plot);
// What followAppearance() does before a replot, for one appearance.
void applyAppearance(QCustomPlot* plot, const Appearance& appearance);
