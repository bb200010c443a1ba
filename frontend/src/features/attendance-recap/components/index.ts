export { AttendanceCalendar, type AttendanceCalendarProps } from './AttendanceCalendar';
export { StudentAttendanceSection } from './StudentAttendanceSection';
