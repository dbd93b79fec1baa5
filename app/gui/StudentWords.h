// Messages from the core say where a thing is as the command line and the files need it: a source's name
// and line ("<code>:5"), a JSON path ("launch.block:", "args[2] n:"). The window says it in a student's
// words: "line 5", "Block:", "Argument n:". Applied to what the window shows, never to files or reports.
#pragma once

#include <QString>

QString inStudentWords(const QString& message);
